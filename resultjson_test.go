package codemode

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"testing"
)

// TestMarshalResult: marshalResult writes what json.Marshal writes, and
// fails where it fails, with the same error.
func TestMarshalResult(t *testing.T) {
	odd := "<b>&amp;</b> \u2028\u2029 \x00\x1f\t\n\r\b\f \"q\" \\ \xff\xfe é 😀"
	for _, tc := range []struct {
		name string
		res  *ExecuteResult
	}{
		{"nil", nil},
		{"zero: null logs and tool calls", &ExecuteResult{}},
		{"a run that returned", &ExecuteResult{OK: true, Result: json.RawMessage(`2`), Logs: []LogEntry{}, ToolCalls: []ToolCallRecord{}, DurationMs: 3.25}},
		{"a result JSON text with spaces and HTML", &ExecuteResult{OK: true, Result: json.RawMessage(" { \"a\" : [ 1 , \"<&>\u2028\" ] }\n"), Logs: []LogEntry{}, ToolCalls: []ToolCallRecord{}}},
		{"strings that need escaping", &ExecuteResult{
			Error:     &RunError{Name: odd, Message: odd, Code: odd, Stack: odd},
			Logs:      []LogEntry{{Level: "log", Message: odd}, {Level: odd}},
			ToolCalls: []ToolCallRecord{{Name: odd, Reason: odd}},
		}},
		{"an error with a position", &ExecuteResult{Error: &RunError{Name: "TypeError", Message: "x is not a function", Code: ErrorCodeRuntime, Line: 3, Column: -7, Stack: "at f (code.js:3:7)"}, Logs: []LogEntry{}, ToolCalls: []ToolCallRecord{}}},
		{"an error without one", &ExecuteResult{Error: &RunError{Code: ErrorCodeTimeout}}},
		{"tool calls", &ExecuteResult{OK: true, ToolCalls: []ToolCallRecord{{Name: "a.b", Allowed: true, OK: true, DurationMs: 0.125}, {Name: "c", Reason: "denied"}}}},
		{"floats as encoding/json writes them", &ExecuteResult{DurationMs: 1e21, ToolCalls: []ToolCallRecord{{DurationMs: 1e-7}, {DurationMs: math.Copysign(0, -1)}, {DurationMs: 123456789.125}, {DurationMs: math.MaxFloat64}, {DurationMs: math.SmallestNonzeroFloat64}}}},
		{"a NaN duration", &ExecuteResult{DurationMs: math.NaN()}},
		{"an infinite tool call duration", &ExecuteResult{ToolCalls: []ToolCallRecord{{DurationMs: math.Inf(1)}}}},
		{"a result that is not JSON", &ExecuteResult{Result: json.RawMessage(`{"a":`)}},
		{"a result of two values", &ExecuteResult{Result: json.RawMessage(`1 2`)}},
		{"every field set", filledResult(t)},
	} {
		want, wantErr := json.Marshal(tc.res)
		got, err := marshalResult(tc.res)
		if fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Errorf("%s: error %v, json.Marshal's %v", tc.name, err, wantErr)
		}
		if string(got) != string(want) {
			t.Errorf("%s:\n got %s\nwant %s (json.Marshal)", tc.name, got, want)
		}
	}
}

// filledResult is an ExecuteResult whose every field, nested ones
// included, is set (two elements per slice): a field added to these types
// that marshalResult does not write makes TestMarshalResult fail.
func filledResult(t *testing.T) *ExecuteResult {
	n := 0
	var fill func(v reflect.Value)
	fill = func(v reflect.Value) {
		n++
		switch v.Kind() {
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				fill(v.Field(i))
			}
		case reflect.Pointer:
			v.Set(reflect.New(v.Type().Elem()))
			fill(v.Elem())
		case reflect.Slice:
			if v.Type() == reflect.TypeFor[json.RawMessage]() {
				v.SetBytes([]byte(fmt.Sprintf(`{"n":%d}`, n)))
				return
			}
			v.Set(reflect.MakeSlice(v.Type(), 2, 2))
			for i := 0; i < 2; i++ {
				fill(v.Index(i))
			}
		case reflect.String:
			v.SetString(fmt.Sprintf("s%d<&>", n))
		case reflect.Bool:
			v.SetBool(true)
		case reflect.Int, reflect.Int64:
			v.SetInt(int64(n))
		case reflect.Float64:
			v.SetFloat(float64(n) + 0.5)
		default:
			t.Fatalf("a field of kind %s: TestMarshalResult does not know how to set it", v.Kind())
		}
	}
	res := &ExecuteResult{}
	fill(reflect.ValueOf(res).Elem())
	return res
}
