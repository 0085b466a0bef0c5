// Package ffi is the one place that talks to the QuickJS asset: it checks an
// asset against the generated name table, instantiates it with the Go
// implementations of its imports, and wraps the QTS_* C API in typed Go
// methods. Nothing outside this package calls an export by name (the root
// package's TestQuickJSExportsOnlyThroughFFI enforces it).
//
// Ownership follows quickjs-emscripten's interface.c: a JSValue* returned by
// a QTS_ function is owned by the caller and freed with FreeValue; constants
// (Undefined, Null, True, False) are static and never freed.
//
// A trap (C abort, assert, out-of-bounds) panics with *Trap from whichever
// wrapper saw it; the instance is dead afterwards and its owner discards it.
package ffi

//go:generate go run ./gen -pkg ../../../node_modules/@jitl/quickjs-wasmfile-release-sync -out names_gen.go

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/interopio/code-mode/internal/wasmbin"
	"github.com/interopio/code-mode/sandbox/wasmhost"
)

type asset struct {
	Name string
	Sig  string // the function type; see funcType
}

// funcType decodes an asset signature: result letters, ":", parameter
// letters, with i, j, f, d for i32, i64, f32, f64 ("i:ii" is (i32, i32) ->
// i32). The table holds strings so that it is data, not init code; the
// few distinct types are decoded once, on first use.
func funcType(sig string) wasmhost.FuncType {
	return sigTypes()[sig]
}

var sigTypes = sync.OnceValue(func() map[string]wasmhost.FuncType {
	types := map[string]wasmhost.FuncType{}
	for _, table := range []map[string]asset{pinned.Imports, pinned.Exports} {
		for _, a := range table {
			if _, ok := types[a.Sig]; ok {
				continue
			}
			results, params, ok := strings.Cut(a.Sig, ":")
			if !ok {
				panic("ffi: malformed signature " + a.Sig)
			}
			types[a.Sig] = wasmhost.FuncType{Params: sigValues(params), Results: sigValues(results)}
		}
	}
	return types
})

func sigValues(letters string) []wasmhost.ValueType {
	v := make([]wasmhost.ValueType, len(letters))
	for i := range len(letters) {
		switch letters[i] {
		case 'i':
			v[i] = i32
		case 'j':
			v[i] = i64
		case 'f':
			v[i] = f32
		case 'd':
			v[i] = f64
		default:
			panic("ffi: malformed signature letter " + letters[i:i+1])
		}
	}
	return v
}

// assetTable describes one build of the asset; names_gen.go holds the
// pinned one.
type assetTable struct {
	Package, SHA256            string
	Size                       int
	ImportModule, MemoryImport string
	MemoryMinPages             uint32
	Imports, Exports           map[string]asset
}

const i32, i64, f32, f64 = wasmhost.I32, wasmhost.I64, wasmhost.F32, wasmhost.F64

// ErrUnsupportedAsset is wrapped by errors for a WebAssembly module that is
// not the QuickJS build this package was generated for.
var ErrUnsupportedAsset = errors.New("not the QuickJS asset this build understands")

// PinnedPackage names the npm package and version of the expected asset.
const PinnedPackage = "@jitl/quickjs-wasmfile-release-sync@0.32.0"

// Asset is a compiled QuickJS asset that passed the check.
type Asset struct {
	mod wasmhost.Module
	// LoopChecks says that the asset's loops are counted (InstrumentLoops):
	// a program held in a C built-in is stopped past its deadline.
	LoopChecks bool
}

// Compile compiles wasm with backend and checks it.
func Compile(backend wasmhost.Backend, wasm []byte) (*Asset, error) {
	mod, err := backend.Compile(wasm)
	if err != nil {
		return nil, err
	}
	a, err := Check(mod)
	if err != nil {
		mod.Close()
		return nil, err
	}
	return a, nil
}

// Check verifies that mod imports and exports exactly what the pinned build
// does (names, kinds, and types where the backend can reflect them).
//
// It runs at every factory's start. Its loops are kept in small functions,
// and the wording of problems out of them: V8 charges a loop's back-edges
// by the size of the function around it, and one run of a large function
// with a loop would be sent to its optimizing compiler.
func Check(mod wasmhost.Module) (*Asset, error) {
	exports := mod.Exports()
	if goProgram(mod.Imports()) {
		return nil, fmt.Errorf("%w (expected %s): it is a Go program's WebAssembly (Code Mode's own code-mode.wasm?), not QuickJS; the asset is the package's emscripten-module.wasm", ErrUnsupportedAsset, PinnedPackage)
	}
	problems := checkImports(mod.Imports())
	problems = append(problems, checkExports(exports)...)
	if len(problems) > 0 {
		return nil, assetError(problems)
	}
	return &Asset{mod: mod, LoopChecks: hasLoopChecks(exports)}, nil
}

// goProgram says whether a module imports what Go's GOOS=js runtime
// does: the wrong one of the package's two .wasm files, whose list of
// missing QuickJS exports told the page nothing it could act on.
func goProgram(imports []wasmhost.ExternDesc) bool {
	for _, imp := range imports {
		if imp.Module == "gojs" {
			return true
		}
	}
	return false
}

func hasLoopChecks(exports []wasmhost.ExternDesc) bool {
	for _, e := range exports {
		if e.Name == wasmbin.LoopCheckExport && e.Kind == wasmhost.KindFunc {
			return true
		}
	}
	return false
}

func checkImports(imports []wasmhost.ExternDesc) []string {
	var problems []string
	seen := make(map[string]bool, len(pinned.Imports))
	memory := false
	for _, imp := range imports {
		if imp.Module == pinned.ImportModule && imp.Kind == wasmhost.KindMemory && imp.Name == pinned.MemoryImport {
			memory = true
			continue
		}
		if p := checkImport(imp, seen); p != "" {
			problems = append(problems, p)
		}
	}
	if !memory {
		problems = append(problems, "no memory import")
	}
	for _, a := range pinned.Imports {
		if !seen[a.Name] {
			problems = append(problems, "missing import "+a.Name)
		}
	}
	return problems
}

// checkImport checks one import other than the memory, and marks it seen.
func checkImport(imp wasmhost.ExternDesc, seen map[string]bool) string {
	if imp.Module != pinned.ImportModule || imp.Kind != wasmhost.KindFunc {
		return "unexpected import " + imp.Module + "." + imp.Name
	}
	a, ok := pinnedImport(imp.Name)
	if !ok || seen[imp.Name] {
		return "unexpected import " + imp.Module + "." + imp.Name
	}
	seen[imp.Name] = true
	if imp.Type != nil && !sameType(*imp.Type, funcType(a.Sig)) {
		return "import " + imp.Module + "." + imp.Name + " has another type"
	}
	return ""
}

// pinnedImport finds an import of the pinned table by its (minified) name.
func pinnedImport(name string) (asset, bool) {
	for _, a := range pinned.Imports {
		if a.Name == name {
			return a, true
		}
	}
	return asset{}, false
}

func checkExports(exports []wasmhost.ExternDesc) []string {
	have := make(map[string]wasmhost.ExternDesc, len(exports))
	for _, e := range exports {
		have[e.Name] = e
	}
	var problems []string
	for c, a := range pinned.Exports {
		if p := checkExport(c, a, have); p != "" {
			problems = append(problems, p)
		}
	}
	return problems
}

func checkExport(c string, a asset, have map[string]wasmhost.ExternDesc) string {
	e, ok := have[a.Name]
	switch {
	case !ok || e.Kind != wasmhost.KindFunc:
		return "missing export " + a.Name + " (" + c + ")"
	case e.Type != nil && !sameType(*e.Type, funcType(a.Sig)):
		return "export " + a.Name + " (" + c + ") has another type"
	}
	return ""
}

// assetError lists the first few problems, sorted.
func assetError(problems []string) error {
	sort.Strings(problems)
	if len(problems) > 4 {
		problems = append(problems[:4], "and "+strconv.Itoa(len(problems)-4)+" more")
	}
	return fmt.Errorf("%w (expected %s): %s", ErrUnsupportedAsset, PinnedPackage, strings.Join(problems, "; "))
}

func sameType(a, b wasmhost.FuncType) bool {
	return string(valueBytes(a.Params)) == string(valueBytes(b.Params)) &&
		string(valueBytes(a.Results)) == string(valueBytes(b.Results))
}

func valueBytes(v []wasmhost.ValueType) []byte {
	b := make([]byte, len(v))
	for i, t := range v {
		b[i] = byte(t)
	}
	return b
}

// Close releases the compiled module.
func (a *Asset) Close() error { return a.mod.Close() }

// MinMemoryPages is the initial memory the asset needs.
func MinMemoryPages() uint32 { return pinned.MemoryMinPages }
