//go:build js

package codemode

// defaultTimeZones is Config.TimeZones' default: none under GOOS=js, where
// Go's time.LoadLocation has no zoneinfo to read (time/tzdata would add
// ~450 KB); the JavaScript binding gives the host's own Intl (jsbridge.TimeZone).
var defaultTimeZones func(zone string, unixMs float64, style string) (string, error)

// noZoneData heads Config.TimeZone's error for a zone TimeZones gave no
// answer for (the host's Intl has none of it).
const noZoneData = "no time-zone data here (TimeZones gave no answer) for "
