package codemode

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"
	"time"
)

// Globals the sandbox builds on first use (see lazy in prelude/prelude.js):
// a run that does not touch them compiles none of their code. Each source
// maps the global names it defines.
var (
	//go:embed prelude/timers.js
	timersSource string
	//go:embed prelude/url.js
	urlSource string
	//go:embed prelude/text.js
	textSource string
	//go:embed prelude/base64.js
	base64Source string
	//go:embed prelude/clone.js
	cloneSource string

	builtins = map[string]string{
		"timers":          compactJS(timersSource),
		"url":             compactJS(urlSource),
		"text":            compactJS(textSource),
		"base64":          compactJS(base64Source),
		"structuredClone": compactJS(cloneSource),
	}
)

func builtinSource(key string) (string, bool) {
	src, ok := builtins[key]
	return src, ok
}

// callLabel names a tool call in the run's warnings as the model wrote it.
func callLabel(args []json.RawMessage) string {
	var name string
	if len(args) > 0 && json.Unmarshal(args[0], &name) == nil && name != "" {
		return "tool " + name
	}
	return "a tool call"
}

// maxTimerMs bounds one timer's delay; the run's timeout ends the run long
// before (a timer never outlives its run: the sandbox cancels its context).
const maxTimerMs = 24 * 60 * 60 * 1000

// timers are a run's pending host timers, so clearTimeout can release one.
type timers struct {
	mu      sync.Mutex
	pending map[int]chan struct{}
}

// sleep settles after args[1] milliseconds, when timer args[0] is cleared,
// or when the run ends.
func (t *timers) sleep(ctx context.Context, args []json.RawMessage) (json.RawMessage, error) {
	var id int
	var ms float64
	if len(args) < 2 || json.Unmarshal(args[0], &id) != nil || json.Unmarshal(args[1], &ms) != nil {
		return nil, fmt.Errorf("timer: bad arguments")
	}
	ms = min(max(ms, 0), maxTimerMs)
	stop := make(chan struct{})
	t.mu.Lock()
	if t.pending == nil {
		t.pending = map[int]chan struct{}{}
	}
	t.pending[id] = stop
	t.mu.Unlock()
	defer func() {
		t.mu.Lock()
		delete(t.pending, id)
		t.mu.Unlock()
	}()
	timer := time.NewTimer(time.Duration(ms * float64(time.Millisecond)))
	defer timer.Stop()
	select {
	case <-timer.C:
	case <-stop:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return nil, nil
}

// clear lets timer args[0] settle now (its callback does not run: the JS
// side forgot it first).
func (t *timers) clear(args []json.RawMessage) (json.RawMessage, error) {
	var id int
	if len(args) > 0 && json.Unmarshal(args[0], &id) == nil {
		t.mu.Lock()
		if stop, ok := t.pending[id]; ok {
			close(stop)
			delete(t.pending, id)
		}
		t.mu.Unlock()
	}
	return nil, nil
}
