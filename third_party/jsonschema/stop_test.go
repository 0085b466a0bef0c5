package jsonschema

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// code-mode patch: Compiler.StopWhen.
func TestCompileStopWhen(t *testing.T) {
	alts := make([]string, 5000)
	for i := range alts {
		alts[i] = fmt.Sprintf(`{"const":%d}`, i)
	}
	doc, err := UnmarshalJSON(strings.NewReader(`{"anyOf":[` + strings.Join(alts, ",") + `]}`))
	if err != nil {
		t.Fatal(err)
	}
	compile := func(stop func() bool) error {
		c := NewCompiler()
		c.StopWhen(stop)
		if err := c.AddResource("mem:///s.json", doc); err != nil {
			return err
		}
		_, err := c.Compile("mem:///s.json")
		return err
	}
	asked := 0
	if err := compile(func() bool { asked++; return true }); !errors.Is(err, ErrStopped) || asked != 1 {
		t.Errorf("got %v after %d questions; want ErrStopped at the first", err, asked)
	}
	asked = 0
	if err := compile(func() bool { asked++; return false }); err != nil || asked < 2*5000/1024 {
		t.Errorf("got %v after %d questions; want a schema, asked every 1,024 subschemas read and compiled", err, asked)
	}
}

// code-mode patch: the subschemas of a schema are read one by one, each
// asking the stop in its turn: an anyOf of 100,000 alternatives built
// three maps of 100,000 pointers before the compile's first question (0.6
// to 1.5 s without one natively on a loaded machine, up to 3.9 s under
// GOOS=js). Stopped at its first question, the
// compile has made a few objects per alternative read (1,990 in all), not
// per alternative (425,598).
func TestCompileStopWhenWide(t *testing.T) {
	const n = 100000
	alts := make([]any, n)
	for i := range alts {
		alts[i] = map[string]any{"const": i}
	}
	doc := map[string]any{"anyOf": alts}
	allocs := testing.AllocsPerRun(1, func() {
		c := NewCompiler()
		c.StopWhen(func() bool { return true })
		if err := c.AddResource("mem:///s.json", doc); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Compile("mem:///s.json"); !errors.Is(err, ErrStopped) {
			t.Fatalf("got %v, want ErrStopped", err)
		}
	})
	if allocs > n/10 {
		t.Errorf("a compile stopped at its first question made %.0f objects, for %d alternatives", allocs, n)
	}
}
