//go:build !js

package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/interopio/code-mode/internal/leakcheck"
)

// TestLeakCheckCatchesALeak: with the leak check on (TestMain), a run
// whose host function takes a reference to a QuickJS object and never
// frees it is caught, on an instance with an image as on one without: the
// run fails (the instance is discarded), and the leak is recorded with its
// program, even where the result says something else (a run that then
// timed out reports TIMEOUT). A run that frees what it takes is not. On
// the image path nothing caught it before: the image written back dropped
// the reference with everything else.
func TestLeakCheckCatchesALeak(t *testing.T) {
	if !leakcheck.Enabled() {
		t.Fatal("the leak check is off: TestMain turns it on")
	}
	e := oneInstance(t)
	for _, tc := range []struct {
		name    string
		noImage bool
		code    string
		timeout time.Duration
		leaks   bool // in the last run
		// The error codes of the runs before the last (which free what
		// they take) and of the last.
		first, second ErrorCode
	}{
		{"image, leaks", false, "take(); return 1", 0, true, "", CodeRuntime},
		{"image, leaks then times out", false, "take(); for (;;) {}", 300 * time.Millisecond, true, CodeTimeout, CodeTimeout},
		{"image, frees", false, "take(); return 1", 0, false, "", ""},
		{"no image, leaks", true, "take(); return 1", 0, true, "", CodeRuntime},
		{"no image, frees", true, "take(); return 1", 0, false, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.noImages = tc.noImage
			// The idle instance, if any, was made with the other setting.
			e.mu.Lock()
			for _, i := range e.idle {
				i.q.Close()
				<-e.slots
			}
			e.idle = nil
			e.mu.Unlock()
			marker := fmt.Sprintf("/* leakcheck %s */", tc.name)
			i, err := e.lease(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			defer e.release(i)
			const runs = 3
			run := 0
			take := func([]json.RawMessage) (json.RawMessage, error) {
				r := i.run
				g := r.q.Global(r.ctx)
				if !tc.leaks || run < runs {
					r.q.FreeValue(r.ctx, g)
				}
				return nil, nil
			}
			// The runs before the last free what they take: the first runs
			// without an image (precompile), the second makes it, the last
			// starts from it.
			for run = 1; run <= runs; run++ {
				if run == runs && (i.img == nil) != tc.noImage {
					t.Fatalf("the last run has an image: %v, want %v", i.img != nil, !tc.noImage)
				}
				p := Program{Code: marker + tc.code, Funcs: map[string]Func{"take": {Sync: take}}, Timeout: tc.timeout}
				res, err := i.execute(context.Background(), p, e.limit, &e.workers)
				if err != nil {
					t.Fatal(err)
				}
				want := tc.first
				if run == runs {
					want = tc.second
				}
				if got := codeOf(res); got != want {
					t.Errorf("run %d: error %+v, want code %q", run, res.Error, want)
				}
				found := leakcheck.Take(marker)
				if !tc.leaks || run < runs {
					if len(found) > 0 {
						t.Errorf("run %d: recorded %q, want no leak", run, found)
					}
					continue
				}
				if len(found) != 1 || !assertion.MatchString(found[0]) {
					t.Errorf("run %d: recorded %q, want one leak: QuickJS's assertion at its line in JS_FreeRuntime", run, found)
				}
				if !i.q.Dead() {
					t.Errorf("run %d: the instance that leaked is still alive", run)
				}
			}
		})
	}
}

// assertion is QuickJS's failed assertion that objects leaked, with its
// line (which read 140445430581236 when the high half of wazero's i32
// argument was printed too).
var assertion = regexp.MustCompile(`assertion failed: list_empty\(&rt->gc_obj_list\) at \S*quickjs\.c:\d{1,6} \(JS_FreeRuntime\)`)

// TestLeakFailsTheTestBinary: a test whose run leaks, and which does not
// claim the leak (leakcheck.Take), fails the test binary although the test
// itself passed, and the output names the leaking program. The test binary
// runs itself for the leaking test (leakChild).
func TestLeakFailsTheTestBinary(t *testing.T) {
	if os.Getenv(leakChildEnv) == "1" {
		t.Skip("the child runs TestLeakChild only")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestLeakChild$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), leakChildEnv+"=1")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("the child exited with %v, want status 1; output:\n%s", err, out)
	}
	for _, want := range []string{"--- PASS: TestLeakChild", "leakcheck: 1 runs leaked", leakChildMarker} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the child's output lacks %q:\n%s", want, out)
		}
	}
}

const (
	leakChildEnv    = "SANDBOX_LEAKCHECK_CHILD"
	leakChildMarker = "/* the child's leak */"
)

// TestLeakChild leaks, in the child of TestLeakFailsTheTestBinary only.
func TestLeakChild(t *testing.T) {
	if os.Getenv(leakChildEnv) != "1" {
		t.Skip("run by TestLeakFailsTheTestBinary")
	}
	e := oneInstance(t)
	i, err := e.lease(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer e.release(i)
	leak := func([]json.RawMessage) (json.RawMessage, error) {
		i.run.q.Global(i.run.ctx)
		return nil, nil
	}
	if _, err := i.execute(context.Background(), Program{Code: leakChildMarker + "leak()", Funcs: map[string]Func{"leak": {Sync: leak}}}, e.limit, &e.workers); err != nil {
		t.Fatal(err)
	}
}
