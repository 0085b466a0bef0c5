//go:build !js

package sandbox_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/interopio/code-mode/sandbox"
)

// arrayCap is testdata/arraycap.json: the array limit and its words, which
// the page's copy (web/src/tojson.mjs, web/test/tojson.test.mjs) is held to.
type arrayCap struct {
	Max  int `json:"max"`
	Rows []struct {
		Length  int    `json:"length"`
		Message string `json:"message"`
	} `json:"rows"`
}

func readArrayCap(t *testing.T) arrayCap {
	t.Helper()
	raw, err := os.ReadFile("../testdata/arraycap.json")
	if err != nil {
		t.Fatal(err)
	}
	var c arrayCap
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	if c.Max <= 0 || len(c.Rows) == 0 {
		t.Fatalf("testdata/arraycap.json: max %d, %d rows", c.Max, len(c.Rows))
	}
	return c
}

// TestArrayCapTable: a tool input of the table's longest array converts;
// one longer throws at once with the table's words, which ArrayTooLong
// (the host's copy, for an interceptor's replacement input) also gives.
func TestArrayCapTable(t *testing.T) {
	c := readArrayCap(t)
	if sandbox.MaxArrayLen != c.Max {
		t.Errorf("MaxArrayLen = %d, the table says %d", sandbox.MaxArrayLen, c.Max)
	}
	e := mustEngine(t, sandbox.Config{})
	// f answers with the length of the JSON it was given.
	f := sandbox.Func{Sync: func(args []json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(fmt.Sprint(len(args[0]))), nil
	}}
	run := func(code string) string {
		t.Helper()
		res, err := e.Run(context.Background(), sandbox.Program{Code: code, Funcs: map[string]sandbox.Func{"f": f}, Timeout: 60 * time.Second})
		if err != nil || res.Error != nil {
			t.Fatalf("%s: %v %+v", code, err, res.Error)
		}
		return string(res.Value)
	}
	// {"a":[0,0,...]}: 6 + 2 bytes an element, less the last comma.
	if got, want := run(fmt.Sprintf("return f({a: new Array(%d).fill(0)})", c.Max)), fmt.Sprint(6+2*c.Max+1); got != want {
		t.Errorf("an array of %d elements: f got %s bytes, want %s", c.Max, got, want)
	}
	for _, row := range c.Rows {
		if got := sandbox.ArrayTooLong(row.Length); got != row.Message {
			t.Errorf("ArrayTooLong(%d) = %q, the table says %q", row.Length, got, row.Message)
		}
		got := run(fmt.Sprintf("const a = []; a.length = %d; try { f({a}); return 'converted' } catch (e) { return e.name + ': ' + e.message }", row.Length))
		if want, _ := json.Marshal("RangeError: input.a: " + row.Message); got != string(want) {
			t.Errorf("length %d: got %s, want %s", row.Length, got, want)
		}
	}
}
