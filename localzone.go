package codemode

import (
	"errors"
	"strconv"
	"strings"
	"sync"
)

// The sandbox's local time zone (Config.TimeZone): what Date's local-time
// methods and Intl without a timeZone use, as a page's JavaScript uses
// the user's. Its offsets come from Config.TimeZones, as every zone of the
// sandbox's Intl does, so the two agree.

// isUTC says whether s names UTC itself, as intl.js's UTC does: the
// sandbox then needs no offsets at all (QuickJS's Date stays in UTC).
func isUTC(s string) bool {
	if len(s) > 4 && strings.EqualFold(s[:4], "etc/") {
		s = s[4:]
	}
	return strings.EqualFold(s, "utc") || strings.EqualFold(s, "gmt")
}

// resolveZone returns Config.TimeZone's canonical name: zone's by tz, or
// for "" the host's own (tz answers zone "" with it), "UTC" when the host
// names none; else the problem, naming the zone: one tz does not know, or
// cannot answer for (no time-zone data). (Concatenated, not fmt: each fmt
// call costs the core ~0.3 KB.)
func resolveZone(tz func(string, float64, string) (string, error), zone string) (name, problem string) {
	s, err := "", ErrUnknownTimeZone
	if len(zone) <= maxZoneText && !isUTC(zone) {
		s, err = callTimeZones(tz, zone, 0, "")
	}
	ok := err == nil && s != "" && len(s) <= maxZoneText
	if isUTC(zone) || zone == "" && !ok || isUTC(s) {
		return "UTC", ""
	}
	if !ok {
		// A known zone without data (a Go program in an image with no
		// zoneinfo): noZoneData says what to do, and no "expected an IANA
		// name such as America/New_York" is said of America/New_York.
		why, tail := noZoneData, ""
		if errors.Is(err, ErrUnknownTimeZone) {
			why, tail = "unknown time zone ", `: expected an IANA name such as "America/New_York" or "UTC"`
		}
		// A name past any zone's length is quoted only so far: a config's
		// 1 MB timeZone was the whole message, 1 MB long.
		if len(zone) > maxZoneText {
			zone = zone[:maxZoneText] + "..."
		}
		return "", why + strconv.Quote(zone) + tail
	}
	return s, ""
}

// localZone answers the offsets of one zone for QuickJS, which asks at
// every local-time method call (new Date(t).getDate() over 1e5 rows: 1e5
// asks), while Config.TimeZones may cost tens of microseconds (a page's
// Intl). Offsets change a few times a year, so they are kept by UTC day: a
// day whose two ends have the same offset has it throughout (no zone
// changes and changes back within a day), and a day whose ends differ is
// searched, by halves, for the second of its change.
type localZone struct {
	name string
	tz   func(string, float64, string) (string, error)
	mu   sync.Mutex
	// kept: at 2d the offset at the start of UTC day d, at 2d+1 the
	// second of the change in day d, if any (one map: each map type
	// costs the core its code).
	kept map[int64]int64
}

// maxZoneDays bounds what a localZone keeps (a program that asks about
// dates across millennia).
const maxZoneDays = 1 << 14

func newLocalZone(name string, tz func(string, float64, string) (string, error)) *localZone {
	return &localZone{name: name, tz: tz}
}

// localOffset is the runs' sandbox.Program.LocalOffset: nil for UTC.
func (c *CodeMode) localOffset() func(int64) int {
	if c.zone == nil {
		return nil
	}
	return c.zone.offset
}

// offset is sandbox.Program.LocalOffset: the seconds east of UTC at sec.
// Concurrent runs share the zone; the lock is held while TimeZones is
// asked, which is rare. (No defer, no clear: each cost the core ~1-2 KB.)
func (z *localZone) offset(sec int64) int {
	z.mu.Lock()
	off := z.locked(sec)
	z.mu.Unlock()
	return off
}

func (z *localZone) locked(sec int64) int {
	d := sec / 86400
	if sec%86400 < 0 {
		d--
	}
	if z.kept == nil || len(z.kept) > maxZoneDays {
		z.kept = map[int64]int64{}
	}
	a, b := z.get(2*d, d*86400, false, 0), z.get(2*d+2, d*86400+86400, false, 0)
	if a != b && sec >= z.get(2*d+1, d*86400, true, a) {
		return int(b)
	}
	return int(a)
}

// get is kept[k]; the first time, the offset at sec, or with change the
// first second of the day from sec at which the offset is no longer a
// (found by halves).
func (z *localZone) get(k, sec int64, change bool, a int64) int64 {
	v, ok := z.kept[k]
	if !ok {
		if !change {
			v = int64(z.ask(sec))
		} else {
			lo, hi := sec, sec+86400
			for hi-lo > 1 {
				if mid := lo + (hi-lo)/2; int64(z.ask(mid)) == a {
					lo = mid
				} else {
					hi = mid
				}
			}
			v = hi
		}
		z.kept[k] = v
	}
	return v
}

// ask asks Config.TimeZones for the offset at sec. No answer is UTC's (the
// zone was answered for at New; a host that stops answering later has
// nothing better to give).
func (z *localZone) ask(sec int64) int {
	s, _ := callTimeZones(z.tz, z.name, float64(sec)*1000, "longOffset")
	return parseOffset(s)
}

// parseOffset reads a "longOffset" name, "GMT-05:00", "GMT+05:30",
// "GMT-04:56:02" (local mean time) or "GMT" (ICU's for zero), into
// seconds east of UTC; anything else is 0.
func parseOffset(s string) int {
	if len(s) != 9 && len(s) != 12 || s[:3] != "GMT" || s[3] != '+' && s[3] != '-' {
		return 0
	}
	n := 0
	for i := 4; i < len(s); i += 3 {
		if s[i] < '0' || s[i] > '9' || s[i+1] < '0' || s[i+1] > '9' || i > 4 && (s[i-1] != ':' || s[i] > '5') {
			return 0
		}
		n = n*60 + int(s[i]-'0')*10 + int(s[i+1]-'0')
	}
	if len(s) == 9 {
		n *= 60
	}
	if s[3] == '-' {
		return -n
	}
	return n
}
