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
