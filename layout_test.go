package codemode

import (
	"io/fs"
	"os"
	osexec "os/exec"
	"path"
	"path/filepath"
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
