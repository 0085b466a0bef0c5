package codemode

import (
	"io/fs"
	"os"
	osexec "os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
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
	dirs := map[string]bool{}
	for _, f := range trackedFiles(t) {
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

// trackedFiles lists the repository's files: git's list, or outside a git
// checkout (a source archive) the files on disk, without what the build
// and npm make.
func trackedFiles(t *testing.T) []string {
	if out, err := osexec.Command("git", "ls-files").Output(); err == nil {
		return strings.Split(strings.TrimSpace(string(out)), "\n")
	}
	var files []string
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || p == "dist" || p == "build") {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			files = append(files, filepath.ToSlash(p))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestReadmeGoSnippets: each Go block of the README stands, line for line
// (indentation aside), in an Example of the package, so that what a reader
// copies compiles, runs in go test and cleans up as the Example does.
func TestReadmeGoSnippets(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	examples, err := filepath.Glob("*example*_test.go")
	if err != nil || len(examples) == 0 {
		t.Fatalf("no example files (%v)", err)
	}
	blocks := regexp.MustCompile("(?s)```go\n(.*?)```").FindAllSubmatch(readme, -1)
	if len(blocks) == 0 {
		t.Fatal("README.md has no ```go block")
	}
	trimmed := func(text string) []string {
		var lines []string
		for _, l := range strings.Split(text, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				lines = append(lines, l)
			}
		}
		return lines
	}
	for i, b := range blocks {
		snippet := trimmed(string(b[1]))
		found := false
		for _, name := range examples {
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			lines := trimmed(string(src))
			for at := 0; at+len(snippet) <= len(lines) && !found; at++ {
				found = slices.Equal(lines[at:at+len(snippet)], snippet)
			}
		}
		if !found {
			t.Errorf("README.md's Go block %d is in no Example (%s), line for line: write it there, or the README as the Example has it:\n%s", i+1, strings.Join(examples, ", "), b[1])
		}
	}
}
