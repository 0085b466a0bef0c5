package codemode

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestDefaultTimeZones: the native Config.TimeZones (the system's zoneinfo)
// answers as a browser's Intl does: the offset as "longOffset" writes it
// (seconds for local mean time), both sides of DST changes, en-US's short
// names for the US zones only, a name in any case, and an unknown zone or
// Go's "Local" as ErrUnknownTimeZone.
func TestDefaultTimeZones(t *testing.T) {
	ms := func(y int, mo time.Month, d, h, mi, s int) float64 {
		return float64(time.Date(y, mo, d, h, mi, s, 0, time.UTC).UnixMilli())
	}
	jan, jul := ms(2024, 1, 15, 12, 0, 0), ms(2024, 7, 1, 12, 0, 0)
	for _, tc := range []struct {
		zone  string
		at    float64
		style string
		want  string
		err   error
	}{
		{"America/New_York", jan, "longOffset", "GMT-05:00", nil},
		{"America/New_York", jul, "longOffset", "GMT-04:00", nil},
		{"America/New_York", ms(2024, 3, 10, 6, 59, 59), "longOffset", "GMT-05:00", nil},
		{"America/New_York", ms(2024, 3, 10, 7, 0, 0), "longOffset", "GMT-04:00", nil},
		{"America/New_York", ms(2024, 11, 3, 5, 59, 59), "short", "EDT", nil},
		{"America/New_York", ms(2024, 11, 3, 6, 0, 0), "short", "EST", nil},
		{"America/New_York", ms(1850, 1, 1, 0, 0, 0), "longOffset", "GMT-04:56:02", nil},
		{"America/New_York", ms(2100, 6, 30, 0, 0, 0), "longOffset", "GMT-04:00", nil},
		{"America/New_York", 0, "long", "", nil},
		{"america/new_york", 0, "", "America/New_York", nil},
		{"Europe/Berlin", jul, "longOffset", "GMT+02:00", nil},
		{"Europe/Berlin", jan, "short", "", nil}, // CET is no en-US name: the sandbox writes GMT+1
		{"Asia/Kolkata", 0, "longOffset", "GMT+05:30", nil},
		{"Australia/Lord_Howe", jan, "longOffset", "GMT+11:00", nil},
		{"Australia/Lord_Howe", jul, "longOffset", "GMT+10:30", nil},
		{"America/St_Johns", jan, "longOffset", "GMT-03:30", nil},
		{"America/St_Johns", jan, "short", "", nil}, // NST is no en-US name
		{"Pacific/Chatham", jan, "longOffset", "GMT+13:45", nil},
		{"Pacific/Chatham", jul, "longOffset", "GMT+12:45", nil},
		{"Europe/London", jan, "short", "GMT", nil},
		{"Etc/GMT+5", 0, "longOffset", "GMT-05:00", nil},
		{"Asia/Tokyo", 8.64e15, "longOffset", "GMT+09:00", nil},
		{"Mars/Olympus", 0, "", "", ErrUnknownTimeZone},
		{"Local", 0, "", "", ErrUnknownTimeZone},
		{"../../etc/passwd", 0, "", "", ErrUnknownTimeZone},
	} {
		got, err := defaultTimeZones(tc.zone, tc.at, tc.style)
		if got != tc.want || !errors.Is(err, tc.err) {
			t.Errorf("%s at %v, %q: got %q, %v; want %q, %v", tc.zone, tc.at, tc.style, got, err, tc.want, tc.err)
		}
	}
}

// TestZoneHost: __cm_tz checks its arguments and bounds what
// Config.TimeZones gives, whoever wrote it: an answer too long, an error or
// a panic is no answer (0: the sandbox formats in UTC with a warn), an
// unknown zone null (a RangeError there).
func TestZoneHost(t *testing.T) {
	arg := func(vs ...any) []json.RawMessage {
		var out []json.RawMessage
		for _, v := range vs {
			b, _ := json.Marshal(v)
			out = append(out, b)
		}
		return out
	}
	answer := func(s string, err error) func(string, float64, string) (string, error) {
		return func(string, float64, string) (string, error) { return s, err }
	}
	for _, tc := range []struct {
		name string
		tz   func(string, float64, string) (string, error)
		args []json.RawMessage
		want string // JSON, or "error"
	}{
		{"a name", answer("GMT+02:00", nil), arg("Europe/Berlin", 0, "longOffset"), `"GMT+02:00"`},
		{"an unknown zone", answer("", ErrUnknownTimeZone), arg("Mars/Olympus", 0, ""), "null"},
		{"an unknown zone, wrapped", answer("", errors.Join(errors.New("x"), ErrUnknownTimeZone)), arg("Mars/Olympus", 0, ""), "null"},
		{"an empty zone is the sandbox's own, not asked", func(string, float64, string) (string, error) { panic("asked") }, arg("", 0, ""), `"UTC"`},
		{"a zone longer than any", answer("x", nil), arg(strings.Repeat("a", 65), 0, ""), "null"},
		{"an answer too long", answer(strings.Repeat("x", 65), nil), arg("Europe/Berlin", 0, "long"), "0"},
		{"no canonical name", answer("", nil), arg("Europe/Berlin", 0, ""), "0"},
		{"an error", answer("", errors.New("no zoneinfo")), arg("Europe/Berlin", 0, ""), "0"},
		{"a panic", func(string, float64, string) (string, error) { panic("boom") }, arg("Europe/Berlin", 0, ""), "0"},
		{"none", nil, arg("Europe/Berlin", 0, ""), "0"},
		{"a time out of range", answer("x", nil), arg("Europe/Berlin", 8.64e15+1, ""), "error"},
		{"a time that is not a number", answer("x", nil), arg("Europe/Berlin", "0", ""), "error"},
		{"a style too long", answer("x", nil), arg("Europe/Berlin", 0, strings.Repeat("s", 17)), "error"},
		{"a zone that is not a string", answer("x", nil), arg(1, 0, ""), "error"},
		{"two arguments", answer("x", nil), arg("Europe/Berlin", 0), "error"},
	} {
		got, err := zoneHost(tc.tz, "UTC")(tc.args)
		if tc.want == "error" {
			if err == nil {
				t.Errorf("%s: got %s, want an error", tc.name, got)
			}
		} else if err != nil || string(got) != tc.want {
			t.Errorf("%s: got %s, %v; want %s", tc.name, got, err, tc.want)
		}
	}
}

// TestTimeZonesConfig: a run's Intl takes its zones from Config.TimeZones;
// one with no answer formats in UTC with one warn.
func TestTimeZonesConfig(t *testing.T) {
	fixed := func(zone string, ms float64, style string) (string, error) {
		switch style {
		case "":
			return "Test/Zone", nil
		case "longOffset":
			return "GMT+01:30", nil
		}
		return "Test Time", nil
	}
	runInputCasesWith(t, Config{TimeZones: fixed}, []inputCase{
		{name: "its zones", code: "return new Date(Date.UTC(2024, 0, 15, 13, 5)).toLocaleString('en-US', { timeZone: 'anything', timeZoneName: 'long' })", want: `"1/15/2024, 2:35:00 PM Test Time"`},
	})
	none := func(string, float64, string) (string, error) { return "", errors.New("none") }
	runInputCasesWith(t, Config{TimeZones: none}, []inputCase{
		{name: "no answer: UTC with a warn", code: "const d = new Date(Date.UTC(2024, 0, 15, 13, 5));\nreturn [d.toLocaleTimeString('en-US', { timeZone: 'Europe/Paris' }), new Intl.DateTimeFormat('en', { timeZone: 'Asia/Tokyo' }).resolvedOptions().timeZone]", want: `["1:05:00 PM","UTC"]`,
			log: `Intl.DateTimeFormat: the host gave no time zone "Europe/Paris": it was formatted in UTC`},
	})
	// A host that knows the zone and gives no offset (a page whose Intl's
	// format was replaced by a data property, or gives objects): the UTC
	// time was shown as the zone's, without a word.
	noOffset := func(zone string, ms float64, style string) (string, error) {
		if style == "" {
			return "Test/Zone", nil
		}
		return "", errors.New("none")
	}
	runInputCasesWith(t, Config{TimeZones: noOffset}, []inputCase{
		{name: "no offset: UTC with a warn", code: "return new Date(Date.UTC(2024, 0, 15, 13, 5)).toLocaleTimeString('en-US', { timeZone: 'Test/Zone' })", want: `"1:05:00 PM"`,
			log: `Intl.DateTimeFormat: the host gave no offset of time zone "Test/Zone": it was formatted in UTC`},
	})
}
