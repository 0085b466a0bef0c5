//go:build js

package codemode

// defaultTimeZones is Config.TimeZones' default: none under GOOS=js, where
// Go's time.LoadLocation has no zoneinfo to read (time/tzdata would add
// ~450 KB); the JavaScript binding gives the host's own Intl (jsbridge.TimeZone).
var defaultTimeZones func(zone string, unixMs float64, style string) (string, error)
