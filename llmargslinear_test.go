package codemode

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestLLMArgsLinear: a program (or a query) that reads as no call markup is read in
// time linear in its length: jsonCall trimmed the text before each bracket
// and after the last one again for each bracket, and half a megabyte of
// brackets then as many spaces (or the spaces first) took most of an hour
// before the run began (20,000 of each: a second).
func TestLLMArgsLinear(t *testing.T) {
	n := maxCodeBytes / 2
	for _, code := range []string{
		strings.Repeat("[", n-2) + "]" + strings.Repeat(" ", n-2) + "(",
		strings.Repeat(" ", n-2) + strings.Repeat("[", n-2) + "](",
	} {
		for _, spec := range []argSpec{executeCodeArgs, searchToolsArgs} {
			args, _ := json.Marshal(map[string]string{spec.bare: code})
			in, err := spec.parse(args)
			if err != nil || in[spec.bare] != code {
				t.Errorf("%s(%.20q...): %v, the %s changed: %v", spec.tool, code, err, spec.bare, in[spec.bare] != code)
			}
		}
	}
}
