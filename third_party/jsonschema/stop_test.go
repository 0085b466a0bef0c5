package jsonschema

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
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

// code-mode patch: a stopped compile is kept, and Compile goes on from
// where it stopped: a compile longer than one stop's time ends in a few.
// Each Compile here may ask its stop 3 times (the compile reads, queues
// and compiles 20,000 alternatives and 20,000 properties and makes them
// known, about 160 questions in all); started again each time, it never ended. The schema
// made so is the schema compiled at once.
func TestCompileStopWhenResumes(t *testing.T) {
	doc := wideDoc(20000)
	c := NewCompiler()
	c.SkipMetaValidation()
	if err := c.AddResource("mem:///s.json", doc); err != nil {
		t.Fatal(err)
	}
	var sch *Schema
	var err error
	calls, asked := 0, 0
	for calls = 1; calls <= 80; calls++ {
		left := 3
		c.StopWhen(func() bool { asked++; left--; return left < 0 })
		if sch, err = c.Compile("mem:///s.json"); !errors.Is(err, ErrStopped) {
			break
		}
	}
	if err != nil || sch == nil {
		t.Fatalf("%d compiles of 4 questions each: %v; want the schema", calls-1, err)
	}
	if calls < 20 {
		t.Errorf("the compile ended after %d compiles (%d questions): want it stopped more often", calls, asked)
	}
	checkWide(t, sch, 20000)
}

// code-mode patch: the check of a schema against its meta-schema asks the
// stop too (the 2020-12 check of 20,000 subschemas: 0.4 s natively,
// about 380 questions). Stopped, it is made again whole by the next
// Compile; a schema stopped while it was read is read on, not again.
func TestCompileStopWhenMeta(t *testing.T) {
	doc := wideDoc(10000)
	compile := func(c *Compiler, stopAt int) (int, *Schema, error) {
		asked := 0
		c.StopWhen(func() bool { asked++; return asked == stopAt })
		sch, err := c.Compile("mem:///s.json")
		return asked, sch, err
	}
	fresh := func() *Compiler {
		c := NewCompiler()
		if err := c.AddResource("mem:///s.json", doc); err != nil {
			t.Fatal(err)
		}
		return c
	}
	whole, sch, err := compile(fresh(), -1)
	if err != nil || whole < 250 {
		t.Fatalf("compiled whole: %v after %d questions; want about 400", err, whole)
	}
	checkWide(t, sch, 10000)
	// Stopped as it reads the schema (20 questions there), then goes on.
	c := fresh()
	if n, _, err := compile(c, 12); !errors.Is(err, ErrStopped) || n != 12 {
		t.Fatalf("got %v after %d questions; want ErrStopped at the 12th", err, n)
	}
	if n, sch, err := compile(c, -1); err != nil || n > whole-8 {
		t.Fatalf("resumed: %v after %d questions; want the schema, read on (%d questions compiled whole)", err, n, whole)
	} else {
		checkWide(t, sch, 10000)
	}
	// Stopped in the meta-schema's check, which is made again.
	c = fresh()
	if n, _, err := compile(c, 100); !errors.Is(err, ErrStopped) || n != 100 {
		t.Fatalf("got %v after %d questions; want ErrStopped at the 100th", err, n)
	}
	if _, sch, err := compile(c, -1); err != nil {
		t.Fatalf("resumed: %v", err)
	} else {
		checkWide(t, sch, 10000)
	}
}

// wideDoc is {"properties": {"a": {"anyOf": [n consts]}, "b":
// {"properties": {n properties}}}}.
func wideDoc(n int) any {
	alts := make([]any, n)
	for i := range alts {
		alts[i] = map[string]any{"const": json.Number(strconv.Itoa(i))}
	}
	props := map[string]any{}
	for i := 0; i < n; i++ {
		props[fmt.Sprintf("p%d", i)] = map[string]any{"type": "integer"}
	}
	return map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"anyOf": alts}, "b": map[string]any{"properties": props}}}
}

func checkWide(t *testing.T, sch *Schema, n int) {
	t.Helper()
	last := json.Number(strconv.Itoa(n - 1))
	p := fmt.Sprintf("p%d", n-1)
	for _, tc := range []struct {
		v     any
		valid bool
	}{
		{map[string]any{"a": last}, true},
		{map[string]any{"a": json.Number("0")}, true},
		{map[string]any{"a": json.Number("-1")}, false},
		{map[string]any{"b": map[string]any{"p0": json.Number("1"), p: json.Number("2")}}, true},
		{map[string]any{"b": map[string]any{p: "x"}}, false},
	} {
		if err := sch.Validate(tc.v); (err == nil) != tc.valid {
			t.Errorf("%v: got %v, want valid %v", tc.v, err, tc.valid)
		}
	}
}

// code-mode patch: a validation stopped ends its loops at once: an anyOf
// of 100,000 alternatives went on past the stop through every alternative
// left (1.1 s under GOOS=js), each making an error of its own; so did an
// object's properties. Here 20,000 of each.
func TestValidateStopEndsLoops(t *testing.T) {
	const n = 20000
	c := NewCompiler()
	c.SkipMetaValidation()
	if err := c.AddResource("mem:///s.json", wideDoc(n)); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("mem:///s.json")
	if err != nil {
		t.Fatal(err)
	}
	props := map[string]any{}
	for i := 0; i < n; i++ {
		props[fmt.Sprintf("p%d", i)] = "x"
	}
	for name, v := range map[string]any{
		"anyOf":      map[string]any{"a": json.Number("-1")},
		"properties": map[string]any{"b": props},
	} {
		st := &Stop{F: func() bool { return true }}
		if err := sch.ValidateStop(v, st); err == nil || st.Stopped != "asked" {
			t.Fatalf("%s: got %v (%q); want stopped", name, err, st.Stopped)
		}
		if st.steps > 2048 {
			t.Errorf("%s: %d schemas applied; stopped at the 1,024th", name, st.steps)
		}
	}
}
