package codemode

import (
	"testing"
	"time"

	"github.com/interopio/code-mode/sandbox"
)

// TestErrorCodes: each exported code is the sandbox's string, and a run
// failing that way carries it, so callers compare RunError.Code with the
// codemode constants alone.
func TestErrorCodes(t *testing.T) {
	cm := newTestCodeMode(t, Config{Timeout: 3 * time.Second})
	s := mustSession(t, cm)
	for _, tc := range []struct {
		name, code string
		sandbox    sandbox.ErrorCode
		program    string
	}{
		{"ErrorCodeSyntax", ErrorCodeSyntax, sandbox.CodeSyntax, "return )"},
		{"ErrorCodeRuntime", ErrorCodeRuntime, sandbox.CodeRuntime, "throw new Error('boom')"},
		{"ErrorCodeTimeout", ErrorCodeTimeout, sandbox.CodeTimeout, "for (;;) {}"},
		{"ErrorCodeResultNotSerializable", ErrorCodeResultNotSerializable, sandbox.CodeNotSerializable, "return { toJSON() { throw new Error('no') } }"},
		// TestLimits runs out of memory with ErrorCodeMemoryLimit.
		{"ErrorCodeMemoryLimit", ErrorCodeMemoryLimit, sandbox.CodeMemoryLimit, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.code != string(tc.sandbox) {
				t.Errorf("%s = %q, want the sandbox's %q", tc.name, tc.code, tc.sandbox)
			}
			if tc.program == "" {
				return
			}
			res := exec(t, s, tc.program, nil)
			if res.OK || res.Error.Code != tc.code {
				t.Errorf("%q: got %+v, want a RunError with Code %s (%q)", tc.program, res.Error, tc.name, tc.code)
			}
		})
	}
}
