package codemode

import (
	"encoding/json"
	"errors"
)

// Time zones reach the sandbox's Intl (prelude/intl.js) through one host
// function, __cm_tz(zone, unixMs, style), answered by Config.TimeZones:
// the sandbox carries no time-zone data (its size), the host has it. Only
// strings and a number cross, and the answer is bounded here, whoever gave
// it (a page may have patched its Intl). intl.js keeps the answers for the
// run and reads the offset from the "longOffset" name.

// maxZoneText bounds a zone's name and the host's answers (the longest
// IANA name has 32 characters, the longest en-US zone name ~40).
const maxZoneText = 64

// zoneHost is __cm_tz: Config.TimeZones' answer as a string; null for a
// zone it does not know (intl.js throws the browser's RangeError); 0 when
// it has no answer (no time-zone data, an error, an answer out of bounds:
// intl.js formats in UTC with a warn). Zone "" is the sandbox's own,
// local (Config.TimeZone as resolved): its name.
func zoneHost(tz func(string, float64, string) (string, error), local string) func([]json.RawMessage) (json.RawMessage, error) {
	return func(args []json.RawMessage) (json.RawMessage, error) {
		var zone, style string
		var ms float64
		if len(args) != 3 || json.Unmarshal(args[0], &zone) != nil || json.Unmarshal(args[1], &ms) != nil || json.Unmarshal(args[2], &style) != nil ||
			len(style) > 16 || !(ms >= -8.64e15 && ms <= 8.64e15) {
			return nil, errors.New("__cm_tz: expected a zone, a time value and a timeZoneName style")
		}
		if zone == "" {
			return json.Marshal(local)
		}
		if len(zone) > maxZoneText {
			return json.RawMessage("null"), nil
		}
		s, err := callTimeZones(tz, zone, ms, style)
		if errors.Is(err, ErrUnknownTimeZone) {
			return json.RawMessage("null"), nil
		}
		if err != nil || len(s) > maxZoneText || style == "" && s == "" {
			return json.RawMessage("0"), nil
		}
		return json.Marshal(s)
	}
}

// callTimeZones calls tz; a panic in it is an error (no answer), not the
// end of the run.
func callTimeZones(tz func(string, float64, string) (string, error), zone string, ms float64, style string) (s string, err error) {
	defer func() {
		if recover() != nil {
			err = ErrInvalidConfig
		}
	}()
	if tz == nil {
		return "", ErrInvalidConfig
	}
	return tz(zone, ms, style)
}
