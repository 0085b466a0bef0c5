package keys

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// MaxQuoted is the longest key or tool name an error repeats whole;
// longer, it repeats the first QuotedHead characters and the length. A
// 10 MB unknown key (or tool name) made a 10 MB TypeError. keys.mjs
// (worker mode) cuts with the same numbers.
const (
	MaxQuoted  = 200
	QuotedHead = 100
)

// Quote is strconv.Quote(s) (%q), cut as MaxQuoted says:
// "aaa…" (10000000 characters).
func Quote(s string) string {
	n := utf8.RuneCountInString(s)
	if n <= MaxQuoted {
		return strconv.Quote(s)
	}
	i := 0
	for k := 0; k < QuotedHead; k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return fmt.Sprintf("%q… (%d characters)", s[:i], n)
}
