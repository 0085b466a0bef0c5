package codemode

import (
	"testing"

	"github.com/interopio/code-mode/internal/leakcheck"
)

// TestMain runs the package's tests with the sandbox's leak check on: each
// run frees all it made before its instance's image is written back, and a
// run that leaked a QuickJS object fails the test binary, naming its
// program (internal/leakcheck).
func TestMain(m *testing.M) { leakcheck.Main(m) }
