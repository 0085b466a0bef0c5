package codemode

import (
	"encoding/json"
	"testing"
)

// The ids and names of tool calls are read without encoding/json's
// reflection on the common path; they must read as encoding/json does.
func TestCallIDAndName(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		id   int
		ok   bool
		name string
	}{
		{raw: `1`, id: 1, ok: true},
		{raw: `123456789`, id: 123456789, ok: true},
		{raw: `0`, id: 0, ok: true},
		{raw: `-1`},
		{raw: `1.5`},
		{raw: `1e2`},
		{raw: `+1`},
		{raw: `"1"`},
		{raw: `null`},
		{raw: ``},
		{raw: `1234567890`}, // past any call limit
	} {
		id, ok := callID([]json.RawMessage{json.RawMessage(tc.raw)})
		if id != tc.id || ok != tc.ok {
			t.Errorf("callID(%s) = %d, %v; want %d, %v", tc.raw, id, ok, tc.id, tc.ok)
		}
	}
	if _, ok := callID(nil); ok {
		t.Error("callID(nil) ok")
	}
	for _, raw := range []string{`"orders.get"`, `""`, `"a b"`, `"tab\tx"`, `"quote\"d"`, `"\u00e9t\u00e9"`, `"été"`, `"\ud800"`, "\"\xff\"", `"a`, `null`, `1`} {
		var got, want string
		gotOK := jsonName(json.RawMessage(raw), &got)
		wantOK := json.Unmarshal([]byte(raw), &want) == nil
		if got != want || gotOK != wantOK {
			t.Errorf("jsonName(%s) = %q, %v; encoding/json: %q, %v", raw, got, gotOK, want, wantOK)
		}
	}
}
