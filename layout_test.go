package codemode

import (
	"os"
	osexec "os/exec"
	"path"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeLayout keeps the README's layout table and the tree in step:
// every top-level directory, every package under internal/ and sandbox/
// has a row (or is named in its parent's), and every row names a path that
// exists.
func TestReadmeLayout(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	start := strings.Index(text, "## Layout")
	if start < 0 {
		t.Fatal("README.md has no Layout section")
	}
	section := text[start:]
	if end := strings.Index(section[len("## Layout"):], "\n## "); end >= 0 {
		section = section[:len("## Layout")+end]
	}
	rows := map[string]string{}
	for _, m := range regexp.MustCompile("(?m)^\\| `([^`]+)`[^|]*\\|(.*)\\|$").FindAllStringSubmatch(section, -1) {
		rows[strings.TrimSuffix(m[1], "/")] = m[2]
	}
	out, err := osexec.Command("git", "ls-files").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	dirs := map[string]bool{}
	for _, f := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		parts := strings.Split(path.Dir(f), "/")
		if parts[0] == "." || strings.HasPrefix(parts[0], ".") {
			continue
		}
		dirs[parts[0]] = true
		if (parts[0] == "internal" || parts[0] == "sandbox") && len(parts) >= 2 {
			dirs[path.Join(parts[:2]...)] = true
		}
		if parts[0] == "sandbox" && len(parts) >= 3 && parts[1] == "internal" {
			dirs[path.Join(parts[:3]...)] = true
		}
	}
	for d := range dirs {
		if _, ok := rows[d]; ok {
			continue
		}
		if d == "internal" || d == "sandbox/internal" {
			continue // only their packages have rows
		}
		parent, base := path.Dir(d), path.Base(d)
		if strings.Contains(rows[parent], "`"+base+"/`") || strings.Contains(text[start:], "`"+d+"/`") {
			continue
		}
		t.Errorf("README.md's Layout table has no row for %s/: add one saying what it holds", d)
	}
	for p := range rows {
		if p == "*.go" {
			continue
		}
		if _, err := os.Stat(p); err != nil {
			t.Errorf("README layout table names %s/, which does not exist", p)
		}
	}
}
