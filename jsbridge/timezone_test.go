//go:build js && wasm

package jsbridge

import (
	"errors"
	"testing"
)

// TestTimeZone: the host's Intl answers through the loader's timeZone
// (web/src/timezones.mjs, which scripts/wasmexec gives these tests as the
// global the loader's shadow has): a canonical name, the offset as
// "longOffset" writes it, a name in a style, an unknown zone.
func TestTimeZone(t *testing.T) {
	jan := 1705320300000.0 // 2024-01-15T12:05Z
	for _, tc := range []struct {
		zone  string
		at    float64
		style string
		want  string
		err   error
	}{
		{"america/new_york", 0, "", "America/New_York", nil},
		{"America/New_York", jan, "longOffset", "GMT-05:00", nil},
		{"America/New_York", -3786825600000, "longOffset", "GMT-04:56:02", nil}, // 1850: local mean time
		{"America/New_York", jan, "long", "Eastern Standard Time", nil},
		{"Asia/Kolkata", jan, "longOffset", "GMT+05:30", nil},
		{"Europe/Berlin", jan, "short", "GMT+1", nil},
		{"Mars/Olympus", 0, "", "", ErrUnknownTimeZone},
	} {
		got, err := TimeZone(tc.zone, tc.at, tc.style)
		if got != tc.want || !errors.Is(err, tc.err) {
			t.Errorf("TimeZone(%q, %v, %q) = %q, %v; want %q, %v", tc.zone, tc.at, tc.style, got, err, tc.want, tc.err)
		}
	}
	// A style the host's Intl refuses is an error, not an answer.
	if got, err := TimeZone("America/New_York", 0, "bogus"); err == nil {
		t.Errorf("style bogus: got %q, no error", got)
	}
}
