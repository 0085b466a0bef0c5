package keys

import (
	"strings"
	"testing"
)

func TestUnknown(t *testing.T) {
	valid := []string{"wasmLocation", "timeout", "memoryLimit", "interceptors", "toolFilter"}
	for _, tc := range []struct {
		keys []string
		want string // "" = no error
	}{
		{[]string{"timeout", "wasmLocation"}, ""},
		{nil, ""},
		{[]string{"timeoutMs"}, `config: unknown key "timeoutMs" (did you mean "timeout"?)`},
		{[]string{"memoryLimt"}, `config: unknown key "memoryLimt" (did you mean "memoryLimit"?)`},
		{[]string{"toolfilter"}, `config: unknown key "toolfilter" (did you mean "toolFilter"?)`},
		{[]string{"intercpetors"}, `config: unknown key "intercpetors" (did you mean "interceptors"?)`},
		{[]string{"onToolCall"}, `config: unknown key "onToolCall"; valid keys are`},
		{[]string{"zzz", "aaa"}, `config: unknown key "aaa"; valid keys are`},
	} {
		err := Unknown("config", tc.keys, valid)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%v: unexpected %v", tc.keys, err)
			}
			continue
		}
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%v: got %v, want prefix %s", tc.keys, err, tc.want)
		}
	}
}

func TestNearest(t *testing.T) {
	for _, tc := range []struct{ key, want string }{
		{"onToolcall", "onToolCall"},
		{"ontoolcall", "onToolCall"},
		{"onTolCall", "onToolCall"},
		{"xyz", ""},
		{"signal", "signal"},
		{"sig", "signal"},
		{"co", ""},
	} {
		if got := Nearest(tc.key, []string{"onToolCall", "signal", "context"}); got != tc.want {
			t.Errorf("Nearest(%q) = %q, want %q", tc.key, got, tc.want)
		}
	}
}

func TestUnknownHint(t *testing.T) {
	err := UnknownHint("options", []string{"toolFilter"}, []string{"tools"}, map[string]string{"toolFilter": "a factory option"})
	if err == nil || err.Error() != `options: unknown key "toolFilter" (a factory option); valid keys are tools` {
		t.Errorf("got %v", err)
	}
}

// TestQuote: a key or tool name past MaxQuoted characters is repeated as
// its first QuotedHead and its length; keys.mjs's quoteCut says the same.
func TestQuote(t *testing.T) {
	long := strings.Repeat("é", 150) + strings.Repeat("k", 1e6)
	for _, tc := range []struct{ in, want string }{
		{"timeoutMs", `"timeoutMs"`},
		{strings.Repeat("a", 200), `"` + strings.Repeat("a", 200) + `"`},
		{strings.Repeat("a", 201), `"` + strings.Repeat("a", 100) + `"… (201 characters)`},
		{long, `"` + strings.Repeat("é", 100) + `"… (1000150 characters)`},
	} {
		if got := Quote(tc.in); got != tc.want {
			t.Errorf("Quote(%d characters) = %.300s, want %.300s", len(tc.in), got, tc.want)
		}
	}
	err := Unknown("config", []string{strings.Repeat("k", 1e7)}, []string{"timeout"})
	if err == nil || len(err.Error()) > 300 || !strings.Contains(err.Error(), "… (10000000 characters)") {
		t.Errorf("a 10 MB key: %.400v", err)
	}
}
