package codemode

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"
)

// overlapReader notes whether two Reads were ever in it at once. Its
// first Read waits in it until release is closed, so that a second run's
// Read can come in meanwhile.
type overlapReader struct {
	inside  atomic.Int32
	overlap atomic.Bool
	reads   atomic.Int32
	entered chan struct{}
	release chan struct{}
}

func (r *overlapReader) Read(p []byte) (int, error) {
	if r.inside.Add(1) > 1 {
		r.overlap.Store(true)
	}
	defer r.inside.Add(-1)
	if r.reads.Add(1) == 1 {
		r.entered <- struct{}{}
		<-r.release
	}
	for i := range p {
		p[i] = 7
	}
	return len(p), nil
}

// TestCryptoSourceOneReadAtATime: concurrent runs read Config.Random one
// at a time, so that a source that is not safe for concurrent use (a
// seeded math/rand, a counter) can be given. Runs read it from goroutines
// of their own: two runs' crypto calls were in one reader at once, a data
// race on the host's source. The second run reaches its crypto call after
// a tool call the test sees; the bound after that only ends the test's
// wait for a Read that must not come, it asserts no time.
func TestCryptoSourceOneReadAtATime(t *testing.T) {
	r := &overlapReader{entered: make(chan struct{}, 1), release: make(chan struct{})}
	marked := make(chan struct{}, 1)
	mark := Tool{Name: "mark", Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
		marked <- struct{}{}
		return nil, nil
	}}
	cm := mustNew(t, Config{Random: r, Tools: []Tool{mark}})
	s := mustSession(t, cm)
	results := make(chan *ExecuteResult, 2)
	run := func(code string) {
		res, err := s.ExecuteCode(context.Background(), ExecuteCodeInput{Code: code}, nil)
		if err != nil {
			t.Error(err)
		}
		results <- res
	}
	// Either run may end early (a bug): the test then fails, not hangs.
	await := func(ch chan struct{}, what string) {
		select {
		case <-ch:
		case res := <-results:
			t.Fatalf("a run ended before %s: %+v", what, res)
		}
	}
	go run(`return crypto.getRandomValues(new Uint8Array(2))[0]`)
	await(r.entered, "the first read")
	go run(`await tools.mark({}); return crypto.getRandomValues(new Uint8Array(2))[1]`)
	await(marked, "the second run's tool call")
	deadline := time.Now().Add(time.Second)
	for !r.overlap.Load() && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	close(r.release)
	for range 2 {
		if res := <-results; res == nil || !res.OK || string(res.Result) != "7" {
			t.Errorf("run: %+v, want 7", res)
		}
	}
	if r.overlap.Load() {
		t.Error("two runs read Config.Random at once")
	}
}
