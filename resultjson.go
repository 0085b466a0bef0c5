package codemode

import (
	"encoding/json"
	"strconv"
)

// marshalResult is json.Marshal(res), written out field by field: the
// executeCode tool's answer, once per run. encoding/json builds a struct's
// encoder by reflection on its first use (typeFields over ExecuteResult,
// RunError, LogEntry and ToolCallRecord), which was ~2.4 ms of the main
// thread's ~84 ms from a page's import to its first result, V8 compiling
// encoding/json's reflection code for it; its leaf encoders (a string, a
// float64, a RawMessage) are small. TestMarshalResult keeps the two equal,
// errors included, and fails on a field this function does not write.
func marshalResult(res *ExecuteResult) ([]byte, error) {
	if res == nil {
		return []byte("null"), nil
	}
	w := jsonWriter{b: make([]byte, 0, 256)}
	w.raw(`{"ok":`)
	w.bool(res.OK)
	if len(res.Result) > 0 {
		w.raw(`,"result":`)
		w.value(res.Result)
	}
	if e := res.Error; e != nil {
		w.raw(`,"error":{"name":`)
		w.value(e.Name)
		w.raw(`,"message":`)
		w.value(e.Message)
		w.raw(`,"code":`)
		w.value(e.Code)
		if e.Line != 0 {
			w.raw(`,"line":`)
			w.b = strconv.AppendInt(w.b, int64(e.Line), 10)
		}
		if e.Column != 0 {
			w.raw(`,"column":`)
			w.b = strconv.AppendInt(w.b, int64(e.Column), 10)
		}
		if e.Stack != "" {
			w.raw(`,"stack":`)
			w.value(e.Stack)
		}
		w.raw("}")
	}
	w.raw(`,"logs":`)
	writeList(&w, res.Logs, func(l LogEntry) {
		w.raw(`{"level":`)
		w.value(l.Level)
		w.raw(`,"message":`)
		w.value(l.Message)
		w.raw("}")
	})
	w.raw(`,"toolCalls":`)
	writeList(&w, res.ToolCalls, func(c ToolCallRecord) {
		w.raw(`{"name":`)
		w.value(c.Name)
		w.raw(`,"allowed":`)
		w.bool(c.Allowed)
		w.raw(`,"ok":`)
		w.bool(c.OK)
		w.raw(`,"durationMs":`)
		w.value(c.DurationMs)
		if c.Reason != "" {
			w.raw(`,"reason":`)
			w.value(c.Reason)
		}
		w.raw("}")
	})
	w.raw(`,"durationMs":`)
	w.value(res.DurationMs)
	w.raw("}")
	if w.err != nil {
		return nil, w.err
	}
	return w.b, nil
}

// writeList appends items as a JSON array (null for a nil slice, as
// json.Marshal writes it), one writes each item.
func writeList[T any](w *jsonWriter, items []T, one func(T)) {
	if items == nil {
		w.raw("null")
		return
	}
	w.raw("[")
	for i, it := range items {
		if i > 0 {
			w.raw(",")
		}
		one(it)
	}
	w.raw("]")
}

// jsonWriter appends JSON; its first error stops it.
type jsonWriter struct {
	b   []byte
	err error
}

// raw and bool are not inlined: at each of their ~30 calls, an inlined
// append was ~0.5 KB of the core.
//
//go:noinline
func (w *jsonWriter) raw(s string) { w.b = append(w.b, s...) }

//go:noinline
func (w *jsonWriter) bool(v bool) { w.b = strconv.AppendBool(w.b, v) }

// value appends v as json.Marshal writes it (v is a string, float64 or
// json.RawMessage: encoders without reflection over fields).
func (w *jsonWriter) value(v any) {
	if w.err != nil {
		return
	}
	enc, err := json.Marshal(v)
	if err != nil {
		w.err = err
		return
	}
	w.b = append(w.b, enc...)
}
