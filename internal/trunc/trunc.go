// Package trunc shortens text for the model and for error messages, the same
// way everywhere: within a byte budget, on a UTF-8 boundary, ending in Mark.
package trunc

import (
	"strconv"
	"strings"
)

// Mark ends every shortened string.
const Mark = "…"

// String returns s if it fits in n bytes, and otherwise its longest prefix
// that fits with Mark, cut on a UTF-8 boundary. When n cannot hold Mark,
// the result is Mark alone.
func String(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:boundary(s, max(n-len(Mark), 0))] + Mark
}

// Words is String for prose: it cuts after the last space when that keeps
// at least half the budget, so the text does not stop mid-word.
func Words(s string, n int) string {
	if len(s) <= n {
		return s
	}
	keep := boundary(s, max(n-len(Mark), 0))
	if sp := strings.LastIndexByte(s[:keep], ' '); sp >= keep/2 && sp > 0 {
		keep = sp
	}
	return s[:keep] + Mark
}

// More is the count of a marker of what was left out, "1 more item" or
// "2 more items": every Go marker's count and noun (one and many, the
// noun's two forms, or any words that agree with it: "tool was", "tools
// were") are written by it. sandbox.moreJS is the same in the sandbox's
// JavaScript, and web/src/tojson.mjs's more in the page's.
func More(n int, one, many string) string { return Count(n, "more "+one, "more "+many) }

// Count is n and the words that agree with it, "1 call was" or "2 calls
// were": a message's count of anything, as More is a marker's.
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// boundary moves n back to the start of the rune it falls in.
func boundary(s string, n int) int {
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return n
}
