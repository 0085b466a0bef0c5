package sandbox

import (
	"testing"

	"github.com/interopio/code-mode/internal/leakcheck"
)

// TestMain runs the package's tests with the leak check on: each run frees
// all it made before its image is written back, and a leak fails the test
// binary (internal/leakcheck).
func TestMain(m *testing.M) { leakcheck.Main(m) }
