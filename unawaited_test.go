package codemode

import (
	"fmt"
	"testing"
)

// TestUnawaitedAsyncCallWarning: a statement that calls an async function
// the program declares and drops its promise gets a warning naming its line
// (its rejection is lost, and the program may end first); the run still goes
// as written. A call whose promise is awaited, voided, caught or kept, or a
// function that is not async, gets none.
func TestUnawaitedAsyncCallWarning(t *testing.T) {
	warning := func(line int, name string) string { return fmt.Sprintf(unawaitedWarning, line, name, name) }
	cm := newTestCodeMode(t, Config{})
	s, _ := cm.NewSession()
	for _, tc := range []struct {
		name, code, result string
		warns              []string
	}{
		{"its error is lost, but warned of", "async function save() { await null; throw new Error('lost') }\nsave();\nreturn 2", "2", []string{warning(2, "save")}},
		{"inside a function of a script", "const seen = []\nconst log = async (x) => { await null; seen.push(x) }\nfunction go() {\n  log(1)\n}\ngo()\nseen", "[1]", []string{warning(4, "log")}},
		{"at most three, then the program's own", "async function a() {}\na()\na()\na()\na()\nconsole.warn('mine')\nreturn 1", "1",
			[]string{warning(2, "a"), warning(3, "a"), warning(4, "a"), "mine"}},
		{"awaited", "async function save() { return 3 }\nawait save();\nreturn 3", "3", nil},
		{"voided", "async function save() {}\nvoid save();\nreturn 4", "4", nil},
		{"caught", "async function save() { throw new Error('x') }\nsave().catch(() => {});\nreturn 5", "5", nil},
		{"kept", "async function save() { return 6 }\nconst p = save();\nreturn await p", "6", nil},
		{"not async", "let n = 0\nfunction save() { n = 7 }\nsave();\nreturn n", "7", nil},
		{"main called last by a script, which the host awaits", "async function main() { return 8 }\nmain();", "8", nil},
	} {
		checkWarnings(t, s, tc.name, tc.code, tc.result, tc.warns)
	}
}
