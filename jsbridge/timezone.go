//go:build js && wasm

package jsbridge

import (
	"errors"
	"runtime"
	"syscall/js"
)

// asks counts TimeZone's calls. Each makes three syscall/js strings (the
// zone, the style, the answer), whose references the finalizer goroutine
// frees; but a program's calls reach Go as fast imports (fastimport.go),
// during which no other goroutine runs unless one yields, and local dates
// on 2e5 distinct days (an ask or two each) grew the Go core's memory from
// 7 to 79 MB (1e6: the page's 25 to 405 MB), for good. Yielding every 32
// asks lets the finalizers run: 18 MB, 19 for 1e6. (Cheaper in core size
// than keeping the zone's and style's values and answering into a byte
// array, which kept it at 11 MB for ~0.9 KB of brotli.)
var asks int

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
	if asks++; asks%32 == 0 {
		runtime.Gosched()
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
