//go:build !js

package sandbox_test

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/interopio/code-mode/sandbox"
)

// TestProgramStackFrames: the stack a program reads (e.stack) holds its own
// frames only: the wrapper that makes a body of code with a top-level
// return an async function is called by the host, where its call in the
// script added a frame one line past the code ("at <eval> (code.js:3:3)"
// for 2 lines) to every stack.
func TestProgramStackFrames(t *testing.T) {
	e := mustEngine(t, sandbox.Config{})
	frame := regexp.MustCompile(`at (\S+) \(code\.js:(\d+):\d+\)`)
	for _, tc := range []struct {
		name string
		p    sandbox.Program
		want []string // each frame's function and line
	}{
		{"a body", sandbox.Program{Code: "function f() { return new Error('e').stack }\nreturn f()", Body: true}, []string{"f 1", "<anonymous> 2"}},
		{"a top-level return found by compiling", sandbox.Program{Code: "function f() { return new Error('e').stack }\nreturn f()"}, []string{"f 1", "<anonymous> 2"}},
		{"a caught error", sandbox.Program{Code: "const x = 1\ntry { null.x } catch (e) { return e.stack }", Body: true}, []string{"<anonymous> 2"}},
		{"after an await", sandbox.Program{Code: "await null\nreturn new Error('e').stack", Body: true}, []string{"<anonymous> 2"}},
		{"a script's own top level", sandbox.Program{Code: "const f = () => new Error('e').stack\nf()"}, []string{"f 1", "<eval> 2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := e.Run(context.Background(), tc.p)
			if err != nil || res.Error != nil {
				t.Fatalf("%v %+v", err, res.Error)
			}
			var stack string
			if err := json.Unmarshal(res.Value, &stack); err != nil {
				t.Fatalf("%s: %v", res.Value, err)
			}
			var got []string
			for _, m := range frame.FindAllStringSubmatch(stack, -1) {
				got = append(got, m[1]+" "+m[2])
			}
			if strings.Join(got, ", ") != strings.Join(tc.want, ", ") {
				t.Errorf("frames %q, want %q (of %d lines):\n%s", got, tc.want, strings.Count(tc.p.Code, "\n")+1, stack)
			}
			if n := strings.Count(stack, "\n    at") + 1; n != len(tc.want) {
				t.Errorf("%d frames in %q, want %d", n, stack, len(tc.want))
			}
		})
	}
}
