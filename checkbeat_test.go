package codemode

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/interopio/code-mode/sandbox"
)

// TestInputCheckBeats: a tool's input check is Go work on the run's own
// thread under GOOS=js, where no interrupt poll runs; in a worker its page
// replaced a worker silent for 2 s past a run's deadline, and under load
// the check of an anyOf of 100,000 alternatives went past that (once in 13
// calls: the compiled schema lost with the worker), and an abort meanwhile
// was never read. The check shows life as it asks its stop
// (sandbox.PastDeadline -> sandbox.Beat), naming its run's poll owner, the
// first time and at the question that finds the deadline past at least.
func TestInputCheckBeats(t *testing.T) {
	wantBeats := countBeats(t)
	s := mustSession(t, newTestCodeMode(t, Config{Timeout: 300 * time.Millisecond, Tools: []Tool{deepCheckTool}}))
	const code = "let o = {}; for (let i = 0; i < 40; i++) o = { c: o }\nreturn await tools.deep.check(o)"
	res, err := s.ExecuteCode(sandbox.WithPollOwner(context.Background(), 7), ExecuteCodeInput{Code: code}, nil)
	if err != nil || res.OK || res.Error.Code != ErrorCodeTimeout {
		t.Fatalf("%+v, %v: want the check's TIMEOUT", res, err)
	}
	wantBeats()
}

// TestResultCheckBeats: a result's check against the tool's outputSchema
// is the same Go work as an input's; it asked only the run's time, without
// a sign of life (in a worker, an abort meanwhile went unread and the page
// replaced the worker). It beats as the input check does, naming the run,
// and its run ends with the TIMEOUT that names it (TestTimeoutNamesAResultCheck).
func TestResultCheckBeats(t *testing.T) {
	wantBeats := countBeats(t)
	deep := Tool{Name: "deep.result", OutputSchema: deepCheckTool.InputSchema,
		Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
			o := "{}"
			for range 40 {
				o = `{"c": ` + o + `}`
			}
			return json.RawMessage(o), nil
		}}
	s := mustSession(t, newTestCodeMode(t, Config{Timeout: 300 * time.Millisecond, Tools: []Tool{deep}}))
	res, err := s.ExecuteCode(sandbox.WithPollOwner(context.Background(), 7), ExecuteCodeInput{Code: "return await tools.deep.result({})"}, nil)
	if err != nil || res.OK || res.Error.Code != ErrorCodeTimeout || !strings.Contains(res.Error.Message, "checking the result of tool deep.result") {
		t.Fatalf("%+v, %v: want the call's check stopped by the run's time", res, err)
	}
	wantBeats()
}

// countBeats counts sandbox.Beat's calls by poll owner for the test; the
// function it returns fails the test unless 2 or more came, all naming the
// run's owner 7.
func countBeats(t *testing.T) func() {
	var mu sync.Mutex
	owners := map[float64]int{}
	sandbox.Beat = func(owner float64) {
		mu.Lock()
		owners[owner]++
		mu.Unlock()
	}
	t.Cleanup(func() { sandbox.Beat = nil })
	return func() {
		t.Helper()
		mu.Lock()
		defer mu.Unlock()
		if owners[7] < 2 || len(owners) != 1 {
			t.Errorf("beats by owner: %v; want 2 or more, all naming the run's owner 7", owners)
		}
	}
}

// TestSurelyValidAsksItsStop: the scan for a surely valid input asked no
// stop: an input matching none of an anyOf's 100,000 alternatives was
// scanned for 35-180 ms under GOOS=js, twice, past a run's deadline. It
// asks every 1,024 schemas applied or enum values passed, and says "not
// known" once stopped.
func TestSurelyValidAsksItsStop(t *testing.T) {
	alts := make([]any, 100000)
	for i := range alts {
		alts[i] = map[string]any{"const": "v" + strconv.Itoa(i)}
	}
	enum := make([]any, 5000)
	for i := range enum {
		enum[i] = "v" + strconv.Itoa(i)
	}
	for _, c := range []struct {
		name   string
		schema any
		polls  int // schemas applied and enum values passed
	}{
		{"anyOf of 100,000", map[string]any{"anyOf": alts}, 100001},
		{"enum of 5,000", map[string]any{"enum": enum}, 5001},
	} {
		asked := 0
		f := &fastCheck{stop: func() bool { asked++; return false }}
		if f.valid(c.schema, "w", 0) || asked != c.polls/1024 {
			t.Errorf("%s: asked %d times; want %d (every 1,024), and not valid", c.name, asked, c.polls/1024)
		}
		asked = 0
		f = &fastCheck{stop: func() bool { asked++; return true }}
		if f.valid(c.schema, "w", 0) || asked != 1 || f.polls != 1024 {
			t.Errorf("%s: stopped at its first question: asked %d times, %d polls; want the scan ended there", c.name, asked, f.polls)
		}
		// Not stopped, a value it holds is surely valid.
		if f := (&fastCheck{stop: func() bool { return false }}); !f.valid(c.schema, "v4999", 0) {
			t.Errorf("%s: \"v4999\" not surely valid", c.name)
		}
	}
}
