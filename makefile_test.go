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
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) >= 3 && f[0] == "make" {
			listed[f[1]] = true
		}
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
