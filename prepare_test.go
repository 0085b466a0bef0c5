package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
)

// TestPrepare: CodeMode.Prepare makes an instance ready before the first
// run (the JS package calls it once a factory is made), for the prelude a
// program without built-ins of their own runs with (preludeFor gives the
// plain one, which Prepare compiles); the runs after it work as without
// it. A closed or nil CodeMode says ErrClosed.
func TestPrepare(t *testing.T) {
	for _, code := range []string{`return 1`, `return await tools.math.add({ a: 1, b: 2 })`, `const r = await tools.math.add({ a: 1, b: 2 }); console.log(r); return r`} {
		for _, zoned := range []bool{false, true} {
			if prelude, _ := preludeFor(code, zoned); prelude != preludePlain {
				t.Errorf("preludeFor(%q, %v) is not the plain prelude that Prepare compiles", code, zoned)
			}
		}
	}
	cm := mustNew(t, Config{})
	if err := cm.Prepare(); err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	if s := cm.engine.Stats(); s.Idle != 1 {
		t.Errorf("after Prepare: %d idle instances, want 1", s.Idle)
	}
	add := Tool{Name: "math.add", Description: "adds", InputSchema: json.RawMessage(`{"type":"object"}`),
		Execute: func(_ context.Context, in json.RawMessage, _ Call) (json.RawMessage, error) {
			var x struct{ A, B int }
			if err := json.Unmarshal(in, &x); err != nil {
				return nil, err
			}
			return json.Marshal(x.A + x.B)
		}}
	s := mustSession(t, cm, add)
	for run := 1; run <= 2; run++ {
		res, err := s.ExecuteCode(context.Background(), ExecuteCodeInput{Code: `return await tools.math.add({ a: 1, b: 2 })`}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !res.OK || string(res.Result) != "3" {
			t.Errorf("run %d after Prepare: %+v, want 3", run, res)
		}
	}
	cm.Close()
	if err := cm.Prepare(); !errors.Is(err, ErrClosed) {
		t.Errorf("Prepare after Close: %v, want ErrClosed", err)
	}
	if err := (*CodeMode)(nil).Prepare(); !errors.Is(err, ErrClosed) {
		t.Errorf("Prepare on a nil CodeMode: %v, want ErrClosed", err)
	}
}
