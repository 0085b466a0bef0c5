package jsonschema

// code-mode patch: the tests of compiling the meta-schemas on first use.

import (
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// TestMetaschemasCompiledOnFirstUse runs in a fresh process, where no other
// test compiled anything yet: loading the package must leave every draft's
// meta-schema uncompiled, and compiling a schema must compile its own
// draft's (2020-12 by default) and no other.
func TestMetaschemasCompiledOnFirstUse(t *testing.T) {
	if os.Getenv("JSONSCHEMA_LAZY_CHILD") != "1" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestMetaschemasCompiledOnFirstUse$", "-test.count=1")
		cmd.Env = append(os.Environ(), "JSONSCHEMA_LAZY_CHILD=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "PASS") {
			t.Fatalf("child: %v\n%s", err, out)
		}
		return
	}
	drafts := []*Draft{Draft4, Draft6, Draft7, Draft2019, Draft2020}
	for _, d := range drafts {
		if d.sch != nil || d.vocabSchemas != nil {
			t.Fatalf("%s: meta-schema compiled before any use", d.url)
		}
	}
	c := NewCompiler()
	if err := c.AddResource("mem:///s.json", map[string]any{"type": "string"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Compile("mem:///s.json"); err != nil {
		t.Fatal(err)
	}
	for _, d := range drafts {
		if d == Draft2020 {
			if d.sch == nil || len(d.vocabSchemas) != len(d.allVocabs) {
				t.Errorf("%s: meta-schema or vocabularies not compiled after the first compile", d.url)
			}
		} else if d.sch != nil {
			t.Errorf("%s: meta-schema compiled, though no schema uses that draft", d.url)
		}
	}
	// A schema of another draft compiles that draft's meta-schema too.
	c = NewCompiler()
	if err := c.AddResource("mem:///d7.json", map[string]any{"$schema": "http://json-schema.org/draft-07/schema#", "type": 5.0}); err == nil {
		if _, err := c.Compile("mem:///d7.json"); err == nil {
			t.Error(`draft-07 {"type": 5} compiled without a meta-schema error`)
		}
	}
	if Draft7.sch == nil {
		t.Error("draft-07 meta-schema not compiled after compiling a draft-07 schema")
	}
}

// TestMetaschemasConcurrentFirstUse compiles and validates from several
// goroutines at once (run with -race): the first use is safe to race, and
// schemas are still checked against their meta-schema.
func TestMetaschemasConcurrentFirstUse(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := NewCompiler()
			if err := c.AddResource("mem:///bad.json", map[string]any{"type": 5.0}); err == nil {
				if _, err := c.Compile("mem:///bad.json"); err == nil {
					errs <- `{"type": 5} compiled without a meta-schema error`
				}
			}
			c = NewCompiler()
			if err := c.AddResource("mem:///ok.json", map[string]any{"type": "string"}); err != nil {
				errs <- err.Error()
				return
			}
			sch, err := c.Compile("mem:///ok.json")
			if err != nil {
				errs <- err.Error()
				return
			}
			if err := sch.Validate(1.0); err == nil {
				errs <- "1 validated against {\"type\": \"string\"}"
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestSkipMetaValidation runs in a fresh process: a compiler told to skip
// the meta-schema neither compiles it nor validates against it.
func TestSkipMetaValidation(t *testing.T) {
	if os.Getenv("JSONSCHEMA_SKIPMETA_CHILD") != "1" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSkipMetaValidation$", "-test.count=1")
		cmd.Env = append(os.Environ(), "JSONSCHEMA_SKIPMETA_CHILD=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "PASS") {
			t.Fatalf("child: %v\n%s", err, out)
		}
		return
	}
	compile := func(skip bool, doc any) error {
		c := NewCompiler()
		if skip {
			c.SkipMetaValidation()
		}
		if err := c.AddResource("mem:///s.json", doc); err != nil {
			return err
		}
		sch, err := c.Compile("mem:///s.json")
		if err == nil && sch.Validate("x") != nil {
			t.Errorf("%v: \"x\" is not valid", doc)
		}
		return err
	}
	if err := compile(true, map[string]any{"type": "string"}); err != nil {
		t.Fatal(err)
	}
	// "title": 5 is not valid against the meta-schema; the compiler itself
	// ignores the title.
	if err := compile(true, map[string]any{"type": "string", "title": 5.0}); err != nil {
		t.Fatalf("skipped: %v", err)
	}
	if Draft2020.sch != nil {
		t.Fatal("draft 2020-12 meta-schema compiled by a compiler that skips it")
	}
	if err := compile(false, map[string]any{"type": "string", "title": 5.0}); err == nil || !strings.Contains(err.Error(), "metaschema") {
		t.Fatalf("not skipped: got %v, want a meta-schema error", err)
	}
	if Draft2020.sch == nil {
		t.Fatal("draft 2020-12 meta-schema not compiled by a compiler that validates")
	}
}
