package codemode

import (
	"encoding/json"
	"errors"
	"os"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

// localZoneTable is testdata/localzone.json: Date's local-time methods,
// setHours across New York's DST changes, Date.parse of local strings,
// toString and toLocaleString without a timeZone, each as Node gives it
// with TZ set to the zone (web/test/localzone.test.mjs checks the table
// against Node itself, and the JavaScript package against it).
type localZoneTable struct {
	Exprs []string                     `json:"exprs"`
	Want  map[string][]json.RawMessage `json:"want"`
}

func readLocalZoneTable(t *testing.T) localZoneTable {
	t.Helper()
	b, err := os.ReadFile("testdata/localzone.json")
	if err != nil {
		t.Fatal(err)
	}
	var tab localZoneTable
	if err := json.Unmarshal(b, &tab); err != nil {
		t.Fatal(err)
	}
	return tab
}

// zoneNameInToString is the " (Eastern Standard Time)" V8 writes after
// toString's offset: QuickJS writes the offset alone.
var zoneNameInToString = regexp.MustCompile(`(GMT[+-]\d{4}) \([^)]*\)`)

// TestLocalTimeZone: with Config.TimeZone set, every row of the table is
// what Node gives with TZ set to that zone (before, every zone's was UTC's).
func TestLocalTimeZone(t *testing.T) {
	tab := readLocalZoneTable(t)
	for zone := range tab.Want {
		s := mustSession(t, newTestCodeMode(t, Config{TimeZone: zone}))
		for i, e := range tab.Exprs {
			res := exec(t, s, "return "+e, nil)
			want := zoneNameInToString.ReplaceAllString(string(tab.Want[zone][i]), "$1")
			if !res.OK || string(res.Result) != want {
				t.Errorf("%s: %s\n  got  %s %+v\n  want %s", zone, e, res.Result, res.Error, want)
			}
		}
	}
}

// TestLocalTimeZoneDefault: without Config.TimeZone the sandbox's zone is
// the machine's, as the TZ variable names it (as Node's is); "UTC" pins it.
func TestLocalTimeZoneDefault(t *testing.T) {
	tab := readLocalZoneTable(t)
	const code = "return [new Date(Date.UTC(2024, 0, 15, 13, 5)).getHours(), new Date(0).getTimezoneOffset(), new Intl.DateTimeFormat().resolvedOptions().timeZone]"
	for _, tc := range []struct{ tz, zone, want string }{
		{"Asia/Kolkata", "", `[18,-330,"Asia/Kolkata"]`},
		{":America/New_York", "", `[8,300,"America/New_York"]`},
		{"/usr/share/zoneinfo/Asia/Kolkata", "", `[18,-330,"Asia/Kolkata"]`},
		{"", "", `[13,0,"UTC"]`},
		{"Asia/Kolkata", "UTC", `[13,0,"UTC"]`},
		{"Asia/Kolkata", "Etc/UTC", `[13,0,"UTC"]`},
		{"UTC", "america/new_york", `[8,300,"America/New_York"]`},
	} {
		t.Setenv("TZ", tc.tz)
		res := exec(t, mustSession(t, newTestCodeMode(t, Config{TimeZone: tc.zone})), code, nil)
		if !res.OK || string(res.Result) != tc.want {
			t.Errorf("TZ=%q TimeZone %q: got %s %+v, want %s", tc.tz, tc.zone, res.Result, res.Error, tc.want)
		}
	}
	// The table's first row under the machine's zone.
	t.Setenv("TZ", "Asia/Kolkata")
	res := exec(t, mustSession(t, newTestCodeMode(t, Config{})), "return "+tab.Exprs[0], nil)
	if string(res.Result) != string(tab.Want["Asia/Kolkata"][0]) {
		t.Errorf("TZ=Asia/Kolkata: got %s, want %s", res.Result, tab.Want["Asia/Kolkata"][0])
	}
}

// TestTimeZoneConfigErrors: a zone New cannot use is a ConfigError naming
// TimeZone and the value, at New, not a RangeError in some run later.
func TestTimeZoneConfigErrors(t *testing.T) {
	none := func(string, float64, string) (string, error) { return "", errors.New("no data") }
	for _, tc := range []struct {
		name string
		cfg  Config
		want string // the resolved zone, or the error's text
	}{
		{"unknown", Config{TimeZone: "Mars/Olympus"}, `codemode: invalid config: TimeZone: unknown time zone "Mars/Olympus": expected an IANA name such as "America/New_York" or "UTC"`},
		{"Go's Local", Config{TimeZone: "Local"}, `TimeZone: unknown time zone "Local"`},
		{"too long to ask about", Config{TimeZone: strings.Repeat("A", 65)}, `TimeZone: unknown time zone "` + strings.Repeat("A", 64) + `...": expected an IANA name`},
		{"1 MB, quoted only so far", Config{TimeZone: strings.Repeat("B", 1<<20)}, `TimeZone: unknown time zone "` + strings.Repeat("B", 64) + `...": expected an IANA name such as "America/New_York" or "UTC"`},
		{"no data for it", Config{TimeZone: "Europe/Berlin", TimeZones: none}, `TimeZone: no time-zone data here (TimeZones gave no answer`},
		{"UTC needs none", Config{TimeZone: "utc", TimeZones: none}, "UTC"},
		{"the host's, none: UTC", Config{TimeZones: none}, "UTC"},
		{"canonical", Config{TimeZone: "asia/kolkata"}, "Asia/Kolkata"},
	} {
		c, err := ResolveConfig(tc.cfg)
		got := c.TimeZone
		if err != nil {
			got = err.Error()
			if !errors.Is(err, ErrInvalidConfig) {
				t.Errorf("%s: %v does not wrap ErrInvalidConfig", tc.name, err)
			}
		}
		if !strings.Contains(got, tc.want) || len(got) > 300 {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestTimeZoneNoDataMessage: a zone TimeZones has no data for is not
// called unknown, nor told "expected an IANA name such as
// America/New_York" when it is America/New_York; natively (where the
// default is the system's zoneinfo, which a scratch or distroless image
// lacks) it says what gives a Go program the data.
func TestTimeZoneNoDataMessage(t *testing.T) {
	none := func(string, float64, string) (string, error) { return "", errors.New("no data") }
	_, err := ResolveConfig(Config{TimeZone: "America/New_York", TimeZones: none})
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	if !strings.HasSuffix(msg, `) for "America/New_York"`) || strings.Contains(msg, "expected an IANA name") {
		t.Errorf("got %q", msg)
	}
	if want := `import _ "time/tzdata" in the program`; runtime.GOOS != "js" && !strings.Contains(msg, want) {
		t.Errorf("got %q, want it to say %s", msg, want)
	}
}

// TestLocalZoneOffsets: the offsets kept by day are the zone's own at
// every second around each of its changes from 1850 to 2040 (local mean
// time's seconds, 15- and 30-minute changes included), and a year of
// scattered instants asks Config.TimeZones about twice a day, not once an
// instant.
func TestLocalZoneOffsets(t *testing.T) {
	for _, name := range []string{"America/New_York", "Europe/Amsterdam", "Asia/Kathmandu", "Australia/Lord_Howe", "America/St_Johns", "Europe/London"} {
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Fatal(err)
		}
		z := newLocalZone(name, defaultTimeZones)
		check := func(sec int64) {
			if _, want := time.Unix(sec, 0).In(loc).Zone(); z.offset(sec) != want {
				t.Errorf("%s at %s: offset %d, want %d", name, time.Unix(sec, 0).UTC(), z.offset(sec), want)
			}
		}
		changes := 0
		for at := time.Date(1850, 1, 1, 0, 0, 0, 0, time.UTC); at.Year() < 2040; {
			_, end := at.In(loc).ZoneBounds()
			if end.IsZero() {
				break
			}
			for d := int64(-2); d <= 1; d++ {
				check(end.Unix() + d)
			}
			changes++
			at = end
		}
		if changes < 2 {
			t.Errorf("%s: only %d changes seen", name, changes)
		}
	}
	calls := 0
	counted := func(zone string, ms float64, style string) (string, error) {
		calls++
		return defaultTimeZones(zone, ms, style)
	}
	z := newLocalZone("America/New_York", counted)
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	for i := int64(0); i < 100_000; i++ {
		z.offset(start + i*7919%(366*86400))
	}
	// 367 day ends, and two changes searched to the second (17 asks each).
	if calls > 367+2*17 {
		t.Errorf("100,000 instants over 2024 asked TimeZones %d times", calls)
	}
}

// TestParseOffset: a "longOffset" name in seconds; what is not one is 0.
func TestParseOffset(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want int
	}{
		{"GMT", 0},
		{"GMT+00:00", 0},
		{"GMT-05:00", -5 * 3600},
		{"GMT+05:45", 5*3600 + 45*60},
		{"GMT-04:56:02", -(4*3600 + 56*60 + 2)},
		{"GMT+14:00", 14 * 3600},
		{"GMT+5:30", 0},
		{"GMT+05:60", 0},
		{"GMT+05-30", 0},
		{"UTC+05:00", 0},
		{"GMT+0a:00", 0},
		{"GMT+05:00:", 0},
		{"GMT+05:00:7", 0},
		{"", 0},
	} {
		if got := parseOffset(tc.s); got != tc.want {
			t.Errorf("%q: got %d, want %d", tc.s, got, tc.want)
		}
	}
}
