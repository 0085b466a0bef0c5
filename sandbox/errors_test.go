package sandbox

import (
	"strings"
	"testing"
)

// TestBound: the host's own cut of an error's strings leaves what
// describeError cut (its marker included) as it is, and cuts what a
// program that replaced describeError's globals wrote whole.
func TestBound(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		n        int
		want     string
	}{
		{"short", "abc", 3, "abc"},
		{"cut by describeError", strings.Repeat("a", 128) + "… [49999872 more characters]", 128, strings.Repeat("a", 128) + "… [49999872 more characters]"},
		{"within the marker's room", strings.Repeat("a", 168), 128, strings.Repeat("a", 168)},
		{"whole", strings.Repeat("<", 1000), 128, strings.Repeat("<", 128) + "… [872 more characters]"},
		{"runes, not bytes", strings.Repeat("é", 200), 100, strings.Repeat("é", 100) + "… [100 more characters]"},
	} {
		if got := bound(tc.in, tc.n); got != tc.want {
			t.Errorf("%s: bound(%d) = %q, want %q", tc.name, tc.n, got, tc.want)
		}
	}
}
