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
