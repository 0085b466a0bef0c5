package codemode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/interopio/code-mode/internal/trunc"
	"github.com/interopio/code-mode/internal/tsgen"
)

// searchAnswerChars is the budget of the searchTools LLM tool's whole
// answer, in bytes of its JSON (as MaxResultChars counts). Each hit is
// bounded already (a description 8 KB, a signature 32 KB), but fifty of
// them from a catalog of long descriptions and schemas (MCP servers) made
// a 2 MB answer. The evaluation's real catalogs stay below it at the
// default limit (their largest answer of 10 hits is 48 KB) but Microsoft
// 365's MCP server, over Graph's request bodies (10 hits of 160 KB);
// listing a namespace of 50 is shortened in a few of them. Inside a run,
// tool_search returns every hit whole: what the program passes on is
// bounded by MaxResultChars.
const searchAnswerChars = 50000

// Below this a description is not cut further: fewer hits are returned
// instead. noteRoom is kept for the note that says what was cut.
const (
	cutDescriptionMin = 200
	noteRoom          = 400
)

type hitJSON struct {
	Name        string `json:"name"`
	Namespace   string `json:"namespace"`
	Description string `json:"description"`
	Signature   string `json:"signature"`
	// Note, on the last hit only, says that the answer was cut to its
	// budget and how (see searchAnswer).
	Note string `json:"note,omitempty"`
}

func hitsJSON(hits []SearchHit) []hitJSON {
	out := make([]hitJSON, len(hits))
	for i, h := range hits {
		out[i] = hitJSON{Name: h.Name, Namespace: h.Namespace, Description: h.Description, Signature: h.Signature}
	}
	return out
}

// encode writes v as JSON as the model reads it: no HTML escaping (a
// signature's Promise<...> would count six bytes a bracket).
func encode(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // strings only: cannot fail
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// searchAnswer is searchTools' answer to the model: the hits as JSON,
// within budget bytes. Over budget, the longest hits are shortened to an
// even share, never cut inside a declaration: a hit keeps the largest of
// its signature's forms that fits (signatureForms), its description cut
// at a word as needed. When hits so shortened still do not fit, the last
// (worst-ranked) are left out. The room the share leaves goes back to
// the shortened hits, best first. The last hit's note says what was done.
// visible are the tools searched, sorted by name.
func searchAnswer(hits []SearchHit, budget int, visible []*toolEntry) json.RawMessage {
	all := hitsJSON(hits)
	if out := encode(all); len(out) <= budget {
		return out
	}
	forms := make([][]string, len(all))
	for n := len(all); ; n-- {
		if kept, cut, ok := fitHits(all[:n], budget-noteRoom, forms, visible); ok || n == 1 {
			return withNote(kept, cut, len(all)-n, budget)
		}
	}
}

// fitHits shortens hits to fit room bytes of JSON: hits below an even
// share of what the smaller ones leave stay whole, the others are
// shortened to that share (shortenHit), and then, best first, take back
// what room is left. ok is false when the shortest forms keep them over
// room. forms holds each hit's signatureForms once made.
func fitHits(hits []hitJSON, room int, forms [][]string, visible []*toolEntry) (out []hitJSON, cut int, ok bool) {
	sizes := make([]int, len(hits))
	order := make([]int, len(hits))
	for i, h := range hits {
		sizes[i], order[i] = len(encode(h)), i
	}
	sort.SliceStable(order, func(a, b int) bool { return sizes[order[a]] < sizes[order[b]] })
	left := room - 2 - (len(hits) - 1) // brackets and commas
	share := left
	for k, i := range order {
		share = left / (len(hits) - k)
		if sizes[i] > share {
			break
		}
		left -= sizes[i]
	}
	out = make([]hitJSON, len(hits))
	total := 2 + len(hits) - 1
	for i, h := range hits {
		if sizes[i] > share {
			if forms[i] == nil {
				forms[i] = signatureForms(h, visible)
			}
			h = shortenHit(h, share, forms[i])
			cut++
		}
		out[i] = h
		total += len(encode(h))
	}
	for i, h := range hits {
		if total > room {
			return out, cut, false
		}
		if now := len(encode(out[i])); out[i] != h {
			more := shortenHit(h, now+room-total, forms[i])
			total += len(encode(more)) - now
			if out[i] = more; more == h {
				cut--
			}
		}
	}
	return out, cut, true
}

// signatureForms are the signatures a hit may show, largest first: its
// own, the renderer's forms with less (tsgen.Shorter, of the tool's own
// schemas: a result type inferred from results is the whole one's only),
// each saying in its doc comment what it left out, and a line that says
// how to get it (a tool's exact name ranks it first).
func signatureForms(h hitJSON, visible []*toolEntry) []string {
	forms := []string{h.Signature}
	for _, e := range visible {
		if e.info.Name == h.Name {
			forms = append(forms, tsgen.Shorter(e.info.Name, e.tool.InputSchema, e.tool.OutputSchema)...)
		}
	}
	return append(forms, signatureLeftOut(h.Name))
}

// signatureLeftOut stands for a signature that no form of fits.
func signatureLeftOut(name string) string {
	return fmt.Sprintf("// left out to fit this answer: searchTools({ query: %q, limit: 1 }) gives it", name)
}

// shortenHit gives h the first of forms with which it fits size bytes,
// its description cut at a word as needed, to cutDescriptionMin at least;
// the last form, its description at that floor, when none fits.
func shortenHit(h hitJSON, size int, forms []string) hitJSON {
	desc := h.Description
	for _, h.Signature = range forms {
		h.Description = desc
		for range 8 {
			over := len(encode(h)) - size
			if over <= 0 {
				return h
			}
			if len(h.Description) <= cutDescriptionMin {
				break
			}
			h.Description = trunc.Words(h.Description, max(cutDescriptionMin, len(h.Description)-over))
		}
	}
	return h
}

// withNote puts the note on the last hit and encodes the answer.
func withNote(hits []hitJSON, cut, dropped, budget int) json.RawMessage {
	note := fmt.Sprintf("this answer was cut to its %d-character budget:", budget)
	if cut > 0 {
		verb := "are"
		if cut == 1 {
			verb = "is"
		}
		note += fmt.Sprintf(" %d of these hits %s shortened (a signature with less, as its comment says, or left out; a description ending in %s);", cut, verb, trunc.Mark)
	}
	if dropped > 0 {
		note += " " + trunc.More(dropped, "matching tool was", "matching tools were") + " left out;"
	}
	note += " ask for fewer (limit), search one namespace or use narrower words; searchTools with a tool's name and limit 1, or tool_search inside executeCode, gives a hit whole"
	hits[len(hits)-1].Note = note
	return encode(hits)
}
