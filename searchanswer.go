package codemode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/interopio/code-mode/internal/trunc"
)

// searchAnswerChars is the budget of the searchTools LLM tool's whole
// answer, in bytes of its JSON (as MaxResultChars counts). Each hit is
// bounded already (a description 8 KB, a signature 32 KB), but fifty of
// them from a catalog of long descriptions and schemas (MCP servers) made
// a 2 MB answer. The evaluation's 37 real catalogs stay far below it at
// the default limit (their largest answer of 10 hits is 31 KB); listing a
// namespace of 50 is cut in a few of them (the largest is 94 KB). Inside
// a run, tool_search returns every hit whole: what the program passes on
// is bounded by MaxResultChars.
const searchAnswerChars = 50000

// Below these a hit is not cut further: fewer hits are returned instead.
// A signature's first kilobyte names the input's fields.
const (
	cutDescriptionMin = 200
	cutSignatureMin   = 1000
	// noteRoom is kept for the note that says what was cut.
	noteRoom = 400
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
// within budget bytes. Over budget, the longest hits are cut first, to an
// even share (their descriptions, then their signatures, each ending in
// trunc.Mark); when hits cut to the floors above still do not fit, the
// last (worst-ranked) hits are left out. Either way the last hit's note
// says so, with what to do instead.
func searchAnswer(hits []SearchHit, budget int) json.RawMessage {
	all := hitsJSON(hits)
	if out := encode(all); len(out) <= budget {
		return out
	}
	for n := len(all); n > 1; n-- {
		if kept, cut, ok := fitHits(all[:n], budget-noteRoom); ok {
			return withNote(kept, cut, len(all)-n, budget)
		}
	}
	kept, cut, _ := fitHits(all[:min(len(all), 1)], budget-noteRoom)
	return withNote(kept, cut, len(all)-len(kept), budget)
}

// fitHits cuts hits to fit room bytes of JSON: hits below an even share
// of what the smaller ones leave stay whole, the others are cut to that
// share. ok is false when the floors keep them over room.
func fitHits(hits []hitJSON, room int) (out []hitJSON, cut int, ok bool) {
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
			h = cutHit(h, share)
			cut++
		}
		out[i] = h
		total += len(encode(h))
	}
	return out, cut, total <= room
}

// cutHit shortens h's description, then its signature, until its JSON
// fits size bytes or both are at their floors. Each byte cut from the
// text takes at least one from its JSON, so a few rounds suffice.
func cutHit(h hitJSON, size int) hitJSON {
	for range 8 {
		over := len(encode(h)) - size
		switch {
		case over <= 0:
			return h
		case len(h.Description) > cutDescriptionMin:
			h.Description = trunc.Words(h.Description, max(cutDescriptionMin, len(h.Description)-over))
		case len(h.Signature) > cutSignatureMin:
			h.Signature = trunc.String(h.Signature, max(cutSignatureMin, len(h.Signature)-over))
		default:
			return h
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
		note += fmt.Sprintf(" %d of these hits %s shortened (a description or signature ending in %s);", cut, verb, trunc.Mark)
	}
	if dropped > 0 {
		note += " " + trunc.More(dropped, "matching tool was", "matching tools were") + " left out;"
	}
	note += " ask for fewer (limit), search one namespace or use narrower words; inside executeCode, tool_search returns each hit whole"
	hits[len(hits)-1].Note = note
	return encode(hits)
}
