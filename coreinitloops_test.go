package codemode

import (
	"go/ast"
	"go/token"
	"os"
	osexec "os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Under WebAssembly, V8 decides to recompile a function with TurboFan
// (on a background thread, in every cold start) from a budget that each
// pass of a loop spends by the size of the function the loop is in: Go's
// wasm backend compiles a jump back as a jump to the start of one loop that
// wraps the whole function (scripts/wasm-jumps.mjs keeps forward jumps out
// of it). A loop inlined into a large function that runs once is charged
// that function's size at each pass: the search package's init, with the
// loops of a dozen inlined setOf calls, was 8.6 KB of TurboFan work in every
// cold start, jsbridge's trampolineBody (LEB128 encoders inlined a dozen
// times) 9.7 KB, its hostFuncs 6.8 KB.

// TestCoreInitInlinesNoLoop: no package-level variable of the core's own
// packages is initialized by inlining a function of the module (or a
// function literal) that loops; such a function is marked //go:noinline so
// that its loop runs in a function of its own size. A package's variable
// initializers are compiled into one function, its init.
func TestCoreInitInlinesNoLoop(t *testing.T) {
	fset, files := coreGoFiles(t)
	loops := loopingFuncs(files)
	type span struct {
		file       string
		from, to   int
		pkg, names string
	}
	var vars []span
	type lit struct {
		file      string
		line, col int
		body      *ast.BlockStmt
	}
	var lits []lit // the function literals called in initializers, at their call's "("
	type body struct {
		file     string
		from, to token.Position
	}
	var bodies []body // every function literal's body: what it calls runs when it is called, not in init
	for _, f := range files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				if len(vs.Values) == 0 {
					continue
				}
				var names []string
				for _, n := range vs.Names {
					names = append(names, n.Name)
				}
				from, to := fset.Position(vs.Pos()), fset.Position(vs.End())
				vars = append(vars, span{from.Filename, from.Line, to.Line, f.Name.Name, strings.Join(names, ", ")})
				for _, v := range vs.Values {
					ast.Inspect(v, func(n ast.Node) bool {
						if fl, ok := n.(*ast.FuncLit); ok {
							from := fset.Position(fl.Body.Lbrace)
							bodies = append(bodies, body{from.Filename, from, fset.Position(fl.Body.Rbrace)})
						}
						if c, ok := n.(*ast.CallExpr); ok {
							if fl, ok := c.Fun.(*ast.FuncLit); ok {
								p := fset.Position(c.Lparen)
								lits = append(lits, lit{p.Filename, p.Line, p.Column, fl.Body})
							}
						}
						return true
					})
				}
			}
		}
	}
	before := func(l1, c1, l2, c2 int) bool { return l1 < l2 || l1 == l2 && c1 <= c2 }
	inLiteral := func(c inlinedCall) bool {
		for _, b := range bodies {
			if sameFile(c.file, b.file) && before(b.from.Line, b.from.Column, c.line, c.col) && before(c.line, c.col, b.to.Line, b.to.Column) {
				return true
			}
		}
		return false
	}
	for _, c := range inlinedCalls(t) {
		if inLiteral(c) {
			continue
		}
		for _, v := range vars {
			if !sameFile(c.file, v.file) || c.line < v.from || c.line > v.to {
				continue
			}
			loop := false
			if strings.HasPrefix(c.callee, "init.func") {
				for _, l := range lits {
					if sameFile(c.file, l.file) && l.line == c.line && l.col == c.col {
						loop = hasLoop(l.body)
					}
				}
			} else {
				key := c.callee
				if !strings.Contains(strings.SplitN(key, "(", 2)[0], ".") || strings.HasPrefix(key, "(") {
					key = v.pkg + "." + key
				}
				loop = loops[key]
			}
			if loop {
				t.Errorf("%s:%d: the initializer of %s inlines %s, which loops: mark it //go:noinline (see this test's comment)", c.file, c.line, v.names, c.callee)
			}
		}
	}
}

// TestCoreStartHelpersNotInlined: helpers whose loops ran inlined in larger
// functions at every start (see TestCoreInitInlinesNoLoop) stay out of line.
func TestCoreStartHelpersNotInlined(t *testing.T) {
	out := inliningReport(t)
	for _, name := range []string{
		"internal/leb/leb.go: can inline Unsigned",
		"internal/leb/leb.go: can inline Signed",
		"internal/wasmbin/encode.go: can inline Expr",
		"jsbridge/imports.go: can inline (*instance).hostFunc",
	} {
		file, what, _ := strings.Cut(name, ": ")
		re := regexp.MustCompile(`(?m)^(\./)?` + regexp.QuoteMeta(file) + `:\d+:\d+: ` + regexp.QuoteMeta(what) + `$`)
		if re.MatchString(out) {
			t.Errorf("%s: %s; it must not be (//go:noinline): its loop would be charged by its callers' size", file, what)
		}
	}
}

type inlinedCall struct {
	file      string
	line, col int
	callee    string
}

var inlineLine = regexp.MustCompile(`(?m)^(\S+\.go):(\d+):(\d+): inlining call to (\S+)$`)

// inlinedCalls lists the compiler's inlining decisions in the core's own
// packages, built as the core is (GOOS=js).
func inlinedCalls(t *testing.T) []inlinedCall {
	var calls []inlinedCall
	for _, m := range inlineLine.FindAllStringSubmatch(inliningReport(t), -1) {
		line, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		calls = append(calls, inlinedCall{m[1], line, col, m[4]})
	}
	if len(calls) < 1000 {
		t.Fatalf("the compiler reported only %d inlined calls: is -gcflags=-m still printing \"inlining call to\"?", len(calls))
	}
	return calls
}

// inliningReport is go build -gcflags=-m of the core's own packages.
func inliningReport(t *testing.T) string {
	t.Helper()
	const mod = "github.com/interopio/code-mode"
	cmd := osexec.Command("go", "build", "-o", os.DevNull, "-gcflags="+mod+"/...=-m", "./wasm")
	cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m: %v\n%s", err, out)
	}
	return string(out)
}

// loopingFuncs names the module's functions whose bodies have a loop, as
// the compiler names them: pkg.F, pkg.(*T).M, pkg.T.M.
func loopingFuncs(files []*ast.File) map[string]bool {
	out := map[string]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || !hasLoop(fd.Body) {
				continue
			}
			name := fd.Name.Name
			if fd.Recv != nil && len(fd.Recv.List) == 1 {
				switch r := fd.Recv.List[0].Type.(type) {
				case *ast.StarExpr:
					if id, ok := r.X.(*ast.Ident); ok {
						name = "(*" + id.Name + ")." + name
					}
				case *ast.Ident:
					name = r.Name + "." + name
				}
			}
			out[f.Name.Name+"."+name] = true
		}
	}
	return out
}

func hasLoop(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			found = true
		}
		return !found
	})
	return found
}

// sameFile: the compiler writes paths relative to the module's root
// (./x.go for the root package's), go list absolute ones.
func sameFile(reported, abs string) bool {
	return strings.HasSuffix(filepath.ToSlash(abs), "/"+strings.TrimPrefix(filepath.ToSlash(reported), "./"))
}
