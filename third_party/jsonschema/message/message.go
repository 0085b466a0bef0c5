// Package message stands in for golang.org/x/text/message in this copy of
// the validator (code-mode patch, see third_party/README.md).
//
// Upstream words every message through an x/text English printer. That
// printer translates nothing here (no catalog is ever loaded), and linking
// x/text cost the GOOS=js core 518 KB raw and 108 KB brotli (its language,
// number and plural tables). Its one visible effect was digit grouping:
// "%d" of 1000 printed "1,000", unlike the JSON paths ("/items/1000") and
// the messages code-mode words itself. This printer formats with fmt.
package message

import "fmt"

// Printer formats messages with fmt. The zero value is ready to use.
type Printer struct{}

// English is the printer the validator's own messages use.
var English = &Printer{}

// Sprintf is fmt.Sprintf.
func (*Printer) Sprintf(format string, a ...any) string { return fmt.Sprintf(format, a...) }
