//go:build !js

package codemode

import (
	"errors"
	"math"
	"os"
	"strings"
	"sync"
	"time"
)

// defaultTimeZones is Config.TimeZones' default natively: the system's
// zoneinfo through time.LoadLocation. A system without any (a bare
// container) has no answer, so the sandbox formats in UTC with a warn
// rather than call every zone unknown.
func defaultTimeZones(zone string, unixMs float64, style string) (string, error) {
	if zone == "" {
		// The machine's own (Config.TimeZone's default).
		zone = hostZone()
	}
	loc, err := loadZone(zone)
	if err != nil {
		return "", err
	}
	if style == "" {
		return loc.String(), nil
	}
	abbr, off := time.UnixMilli(int64(math.Floor(unixMs))).In(loc).Zone()
	switch style {
	case "longOffset":
		// ICU's: GMT-05:00, GMT-04:56:02 (local mean time), GMT+00:00.
		sign, m := "+", off
		if off < 0 {
			sign, m = "-", -off
		}
		s := "GMT" + sign + two(m/3600) + ":" + two(m/60%60)
		if m%60 != 0 {
			s += ":" + two(m%60)
		}
		return s, nil
	case "short":
		// en-US has short names for the US zones' and GMT only; other
		// zones show their offset (ICU: "GMT+1" for Europe/Berlin, not CET).
		if h, ok := usShort[abbr]; ok && h*3600 == off {
			return abbr, nil
		}
	}
	return "", nil
}

// hostZone is the IANA name of time.Local's zone, found as Go and Node's
// ICU find it: the TZ variable ("America/New_York", ":America/New_York",
// a path into a zoneinfo directory; set and empty is UTC), else the
// zoneinfo file /etc/localtime links to. "UTC" when neither names one.
func hostZone() string {
	name, set := os.LookupEnv("TZ")
	if !set {
		name, _ = os.Readlink("/etc/localtime")
	}
	name = strings.TrimPrefix(name, ":")
	if i := strings.LastIndex(name, "zoneinfo/"); i >= 0 {
		name = name[i+len("zoneinfo/"):]
	}
	if name == "" || strings.HasPrefix(name, "/") {
		return "UTC"
	}
	return name
}

func two(n int) string { return string([]byte{byte('0' + n/10), byte('0' + n%10)}) }

var usShort = map[string]int{"EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7, "MDT": -6, "PST": -8, "PDT": -7,
	"AKST": -9, "AKDT": -8, "HST": -10, "HDT": -9, "AST": -4, "ADT": -3, "GMT": 0}

// noZoneData heads Config.TimeZone's error for a zone TimeZones gave no
// answer for: with the default, a system with no zoneinfo at all (a scratch
// or distroless image; loadZone), which time/tzdata gives a Go program.
const noZoneData = `no time-zone data here (TimeZones gave no answer; by default the system's zoneinfo, which this system may lack: import _ "time/tzdata" in the program, or set ZONEINFO) for `

// zones keeps the locations loaded (LoadLocation reads a file each time),
// at most maxLoadedZones of them.
var zones struct {
	sync.Mutex
	m map[string]*time.Location
}

const maxLoadedZones = 256

func loadZone(zone string) (*time.Location, error) {
	zones.Lock()
	defer zones.Unlock()
	if loc := zones.m[zone]; loc != nil {
		return loc, nil
	}
	// "Local" is Go's name for the machine's zone, no IANA name; browsers
	// refuse it.
	if zone == "Local" {
		return nil, ErrUnknownTimeZone
	}
	loc, err := time.LoadLocation(zone)
	if err != nil {
		// Browsers take a name in any case ("america/new_york"); zoneinfo's
		// files have IANA's.
		loc, err = time.LoadLocation(ianaCase(zone))
	}
	if err != nil {
		if _, e := time.LoadLocation("America/New_York"); e != nil {
			return nil, errors.New("no zoneinfo on this system")
		}
		return nil, ErrUnknownTimeZone
	}
	if len(zones.m) >= maxLoadedZones || zones.m == nil {
		zones.m = map[string]*time.Location{}
	}
	zones.m[zone] = loc
	return loc, nil
}

// ianaCase writes a zone name as IANA's mostly are: a capital after each
// "/", "_" and "-" and at the start, lower case elsewhere
// ("america/new_york" -> "America/New_York"); "Etc/GMT+5" and "EST5EDT"
// keep their capitals.
func ianaCase(s string) string {
	b := []byte(strings.ToLower(s))
	for i := range b {
		if i == 0 || strings.IndexByte("/_-", b[i-1]) >= 0 {
			b[i] = strings.ToUpper(string(b[i]))[0]
		}
	}
	out := string(b)
	if up := strings.ToUpper(s); strings.HasPrefix(up, "ETC/GMT") || !strings.Contains(s, "/") {
		if strings.HasPrefix(up, "ETC/") {
			return "Etc/" + up[4:]
		}
		return up
	}
	return out
}
