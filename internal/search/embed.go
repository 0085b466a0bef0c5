package search

import "math"

// EmbedText is the text of a tool that semantic ranking embeds: its name
// and description. The product and the evaluation both use it, so the
// evaluation measures what users get.
func EmbedText(name, description string) string { return name + "\n" + description }

// Cosine is the cosine similarity of two vectors of the same length (0 when
// either is all zeros).
func Cosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}
