package jsondec

import (
	"reflect"
	"testing"
)

// scalar stands for a number or literal in read's values: Reader passes
// over them.
const scalar = "<scalar>"

// read walks text with a Reader into encoding/json's values (numbers and
// literals as scalar), descending into every container, or only into the
// first levels (skipBelow) and passing over the rest with Skip.
func read(text []byte, skipBelow int) (any, bool) {
	r := NewReader(text, shared)
	var value func(depth int) any
	value = func(depth int) any {
		switch c := r.Kind(); {
		case depth >= skipBelow || c != '{' && c != '[' && c != '"':
			r.Skip()
			if c == '{' || c == '[' {
				return nil
			}
			return scalar
		case c == '"':
			s, _ := r.Str()
			return s
		case c == '{':
			m := map[string]any{}
			r.Enter()
			for {
				k, ok := r.Key()
				if !ok {
					return m
				}
				m[k] = value(depth + 1)
			}
		default:
			list := []any{}
			r.Enter()
			for r.Elem() {
				list = append(list, value(depth+1))
			}
			return list
		}
	}
	v := value(0)
	return v, r.Done()
}

// scalars is v with its numbers and literals as scalar, and below depth
// skipBelow its containers as nil and strings as scalar.
func scalars(v any, depth, skipBelow int) any {
	switch x := v.(type) {
	case map[string]any:
		if depth >= skipBelow {
			return nil
		}
		m := map[string]any{}
		for k, e := range x {
			m[k] = scalars(e, depth+1, skipBelow)
		}
		return m
	case []any:
		if depth >= skipBelow {
			return nil
		}
		list := []any{}
		for _, e := range x {
			list = append(list, scalars(e, depth+1, skipBelow))
		}
		return list
	case string:
		if depth < skipBelow {
			return x
		}
	}
	return scalar
}

// compareReader: a Reader takes exactly the texts json.Unmarshal takes,
// whether it descends into every container or passes over them, and reads
// the same keys and strings.
func compareReader(t *testing.T, text []byte, want any, wantErr error) {
	t.Helper()
	for _, skipBelow := range []int{0, 1, 3, MaxNesting + 2} {
		got, ok := read(text, skipBelow)
		if ok != (wantErr == nil) {
			t.Errorf("Reader (descending %d levels) took %q: %v, json.Unmarshal says %v", skipBelow, text[:min(len(text), 60)], ok, wantErr)
			continue
		}
		if ok && !reflect.DeepEqual(got, scalars(want, 0, skipBelow)) {
			t.Errorf("Reader (descending %d levels) read %q as %v", skipBelow, text[:min(len(text), 60)], got)
		}
	}
}

// TestReaderUnread: a container left open, or a text read only in part,
// is not Done.
func TestReaderUnread(t *testing.T) {
	r := NewReader([]byte(`{"a":[1,2],"b":"x"}`), Options{})
	if !r.Enter() {
		t.Fatal("Enter")
	}
	if k, ok := r.Key(); !ok || k != "a" || !r.Skip() || r.Done() {
		t.Errorf("after a: %q %v, Done %v", k, ok, r.Done())
	}
	if k, ok := r.Key(); !ok || k != "b" {
		t.Errorf("second key %q %v", k, ok)
	}
	if s, ok := r.Str(); !ok || s != "x" {
		t.Errorf("Str %q %v", s, ok)
	}
	if _, ok := r.Key(); ok || !r.Done() {
		t.Errorf("the object's end: more %v, Done %v", ok, r.Done())
	}
	if r, empty := NewReader([]byte(`"x"`), Options{}), NewReader(nil, Options{}); r.Done() || empty.Skip() {
		t.Error("an unread text is Done, or an empty one skipped")
	}
}
