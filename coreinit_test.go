package codemode

import (
	"go/ast"
	"go/token"
	"regexp"
	"strconv"
	"sync"
	"testing"
)

// TestCoreInitCompilesNoRegexp and TestCoreInitFormatsNothing keep work
// off the core's start-up that no page needs before its first result: the
// package inits of the code the GOOS=js core links run on every page load,
// before the factory resolves, and V8 compiles every function they call on
// the main thread. Two regexps compiled at init (schema.go's number text)
// were most of the root package's init (regexp's parser, compiler and
// one-pass analysis); two errors formatted there brought in fmt's printer.
func TestCoreInitCompilesNoRegexp(t *testing.T) {
	for _, c := range initCalls(t, "regexp") {
		t.Errorf("%s: regexp.%s runs at package init in code the core links: compile it on first use (sync.Once) or match by hand", c.pos, c.name)
	}
}

func TestCoreInitFormatsNothing(t *testing.T) {
	for _, c := range initCalls(t, "fmt") {
		t.Errorf("%s: fmt.%s runs at package init in code the core links: format where the value is needed", c.pos, c.name)
	}
}

type initCall struct {
	pos  token.Position
	name string
}

// initCalls lists the calls of package pkg's functions that run at package
// init in the core's files: in package-level var initializers (function
// literals only when called there) and in init functions.
func initCalls(t *testing.T, pkg string) []initCall {
	t.Helper()
	fset, files := coreGoFiles(t)
	var calls []initCall
	for _, f := range files {
		local := ""
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == pkg {
				local = pkg
				if imp.Name != nil {
					local = imp.Name.Name
				}
			}
		}
		if local == "" {
			continue
		}
		visit := func(root ast.Node) {
			called := map[*ast.FuncLit]bool{}
			ast.Inspect(root, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncLit:
					return called[n] // a function value kept for later runs later
				case *ast.CallExpr:
					if lit, ok := n.Fun.(*ast.FuncLit); ok {
						called[lit] = true
					}
					if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
						if x, ok := sel.X.(*ast.Ident); ok && x.Name == local {
							calls = append(calls, initCall{fset.Position(n.Pos()), sel.Sel.Name})
						}
					}
				}
				return true
			})
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				if d.Tok == token.VAR {
					for _, s := range d.Specs {
						for _, v := range s.(*ast.ValueSpec).Values {
							visit(v)
						}
					}
				}
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.Name == "init" && d.Body != nil {
					visit(d.Body)
				}
			}
		}
	}
	return calls
}

// TestIsNumberText: isNumberText answers as the two regexps it replaced,
// on every string of up to 6 characters over the bytes that matter.
func TestIsNumberText(t *testing.T) {
	number := regexp.MustCompile(`^-?\d+(\.\d+)?([eE][+-]?\d+)?$`)
	integer := regexp.MustCompile(`^-?\d+$`)
	for _, tc := range []struct {
		s             string
		number, isInt bool
	}{
		{"42", true, true},
		{"-42", true, true},
		{"3.14", true, false},
		{"-1.5e+10", true, false},
		{"2E-3", true, false},
		{"1e5", true, false},
		{"", false, false},
		{"-", false, false},
		{"--1", false, false},
		{"+1", false, false},
		{".5", false, false},
		{"5.", false, false},
		{"1e", false, false},
		{"1e+", false, false},
		{"1.5.2", false, false},
		{"12\n", false, false},
		{" 12", false, false},
		{"١٢", false, false}, // Arabic-Indic digits: \d is ASCII
		{"0x1F", false, false},
	} {
		if got := isNumberText(tc.s, false); got != tc.number {
			t.Errorf("isNumberText(%q, false) = %v, want %v", tc.s, got, tc.number)
		}
		if got := isNumberText(tc.s, true); got != tc.isInt {
			t.Errorf("isNumberText(%q, true) = %v, want %v", tc.s, got, tc.isInt)
		}
	}
	const alphabet = "-+.eE09x\n"
	buf := make([]byte, 0, 6)
	var walk func()
	walk = func() {
		s := string(buf)
		if got, want := isNumberText(s, false), number.MatchString(s); got != want {
			t.Fatalf("isNumberText(%q, false) = %v, the regexp says %v", s, got, want)
		}
		if got, want := isNumberText(s, true), integer.MatchString(s); got != want {
			t.Fatalf("isNumberText(%q, true) = %v, the regexp says %v", s, got, want)
		}
		if len(buf) == cap(buf) {
			return
		}
		for i := 0; i < len(alphabet); i++ {
			buf = append(buf, alphabet[i])
			walk()
			buf = buf[:len(buf)-1]
		}
	}
	walk()
}

// TestMetaPatternsConcurrentFirstUse: schemameta.go's patterns, compiled
// on first use, give every concurrent first check its answer (go test
// -race watches the compile).
func TestMetaPatternsConcurrentFirstUse(t *testing.T) {
	metaOnce, metaRx = sync.Once{}, metaRegexps{}
	const draft = "https://json-schema.org/draft/2020-12/schema"
	cases := []struct {
		schema map[string]any
		ok     bool
	}{
		{map[string]any{"$schema": draft, "$anchor": "node_1"}, true},
		{map[string]any{"$schema": draft, "$anchor": "1node"}, false},
		{map[string]any{"$schema": draft, "$vocabulary": map[string]any{"https://json-schema.org/draft/2020-12/vocab/core": true}}, true},
		{map[string]any{"$schema": draft, "$vocabulary": map[string]any{"not a uri": true}}, false},
	}
	var wg sync.WaitGroup
	errs := make([]error, 8*len(cases))
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = checkInputSchema(cases[i%len(cases)].schema)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if tc := cases[i%len(cases)]; (err == nil) != tc.ok {
			t.Errorf("checkInputSchema(%v) = %v, want ok %v", tc.schema, err, tc.ok)
		}
	}
}
