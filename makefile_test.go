package codemode

import (
	"os"
	osexec "os/exec"
	"regexp"
	"strings"
	"testing"
)

// TestMakeHelp checks that `make help` lists every target of the Makefile
// a person would run: every rule whose name is a word (not a file path).
func TestMakeHelp(t *testing.T) {
	src, err := os.ReadFile("Makefile")
	if err != nil {
		t.Fatal(err)
	}
	out, err := osexec.Command("make", "--no-print-directory", "help").CombinedOutput()
	if err != nil {
		t.Fatalf("make help: %v\n%s", err, out)
	}
	listed := map[string]bool{}
	// The column where each description starts: one for all, so that no
	// name is longer than help's width (make test-node-worker's was).
	columns := map[int][]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) >= 3 && f[0] == "make" {
			listed[f[1]] = true
			col := len(line) - len(strings.TrimLeft(line[len("make ")+len(f[1]):], " "))
			columns[col] = append(columns[col], f[1])
		}
	}
	if len(columns) != 1 {
		t.Errorf("make help's descriptions start in %d columns (by column: %v): widen help's printf to the longest name", len(columns), columns)
	}
	rule := regexp.MustCompile(`(?m)^([a-zA-Z][a-zA-Z0-9_-]*):([^=]|$)`)
	var targets []string
	for _, m := range rule.FindAllStringSubmatch(string(src), -1) {
		targets = append(targets, m[1])
		if !listed[m[1]] {
			t.Errorf("make help does not list %q: add a \"## what it does\" comment to its rule line", m[1])
		}
	}
	if len(targets) < 10 {
		t.Fatalf("found only %d targets in the Makefile: %v", len(targets), targets)
	}
}
