// Package keys reports unknown keys in options objects, suggesting the
// nearest valid one: a misspelt interceptor that is silently ignored leaves
// every tool unguarded, so a typo must be an error that says what was meant.
package keys

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Unknown returns an error for the first key (in sorted order) that is not
// in valid, or nil. path names the object in the message ("config").
func Unknown(path string, keys, valid []string) error {
	return UnknownHint(path, keys, valid, nil)
}

// UnknownHint is Unknown with advice for keys that are known mistakes (a
// factory option passed to a session, say): hints maps such a key to what
// to use instead, which replaces the edit-distance suggestion.
func UnknownHint(path string, keys, valid []string, hints map[string]string) error {
	var bad []string
	for _, k := range keys {
		if !contains(valid, k) {
			bad = append(bad, k)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	sort.Strings(bad)
	k := bad[0]
	suggest := DidYouMean(k, valid)
	if h, ok := hints[k]; ok {
		suggest = " (" + h + ")"
	}
	return fmt.Errorf("%s: unknown key %s%s; valid keys are %s", path, Quote(k), suggest, strings.Join(valid, ", "))
}

// DidYouMean returns ` (did you mean "x"?)` for the valid name nearest to
// key, or "" when none is near enough to be a plausible typo.
func DidYouMean(key string, valid []string) string {
	if n := Nearest(key, valid); n != "" {
		return fmt.Sprintf(" (did you mean %q?)", n)
	}
	return ""
}

// Nearest returns the valid name closest to key by edit distance, ignoring
// case, or a valid name that key abbreviates; "" if the best is more than
// about a third of the name away.
func Nearest(key string, valid []string) string {
	best, bestD := "", -1
	lk := strings.ToLower(key)
	limit, n := max(2, len(key)/3), utf8.RuneCountInString(lk)
	for _, v := range valid {
		lv := strings.ToLower(v)
		var d int
		switch {
		case strings.EqualFold(key, v):
			d = 0
		case len(lk) >= 3 && strings.HasPrefix(lv, lk):
			d = 1 // a shortened name: exec for execute
		case abs(utf8.RuneCountInString(lv)-n) > limit:
			// The distance is at least the difference in length: a
			// catalog of thousands of tool names costs no alignment each.
			continue
		default:
			d = distance(lk, lv)
		}
		if bestD < 0 || d < bestD {
			best, bestD = v, d
		}
	}
	if bestD < 0 || bestD > limit {
		return ""
	}
	return best
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// distance is the optimal string alignment distance (Levenshtein plus
// adjacent transpositions, the commonest typo).
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
