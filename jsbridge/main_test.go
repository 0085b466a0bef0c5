package jsbridge

import (
	"testing"

	"github.com/interopio/code-mode/internal/leakcheck"
)

// TestMain runs the package's tests (the sandbox's conformance suite on the
// host's WebAssembly among them) with the sandbox's leak check on: each run
// frees all it made before its instance's image is written back, and a
// leak fails the test binary (internal/leakcheck).
func TestMain(m *testing.M) { leakcheck.Main(m) }
