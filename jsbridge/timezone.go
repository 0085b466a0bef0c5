//go:build js && wasm

package jsbridge

import (
	"errors"
	"syscall/js"
)

// zoneFn is the loader's timeZone (web/src/timezones.mjs), which answers by
// the host's Intl as it was at load; none without a loader (GOOS=js tests).
var zoneFn = global.Get("__jsbridgeTimeZone")

// ErrUnknownTimeZone is TimeZone's error for a zone the host's Intl refuses.
var ErrUnknownTimeZone = errors.New("unknown time zone")

// TimeZone answers codemode's Config.TimeZones under GOOS=js by the host's
// own Intl: for style "" the zone's canonical name (resolvedOptions'
// timeZone), else its timeZoneName in that style at unixMs ("GMT-05:00"
// for "longOffset", "EST" for "short"). An answer that is not a string is
// an error (timeZone bounds its length: syscall/js cannot read a string's
// without copying it).
func TimeZone(zone string, unixMs float64, style string) (s string, err error) {
	defer Recover(&err)
	if zoneFn.Type() != js.TypeFunction {
		return "", errors.New("the host gives no time zones")
	}
	v := zoneFn.Invoke(zone, unixMs, style)
	if v.IsNull() {
		return "", ErrUnknownTimeZone
	}
	if v.Type() != js.TypeString {
		return "", errors.New("the host's Intl gave no time zone text")
	}
	return v.String(), nil
}
