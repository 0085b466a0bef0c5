// Command gen writes the name table of the pinned QuickJS asset.
//
// The release build of quickjs-emscripten minifies its import and export
// names, and they change between builds. This reads the glue file
// (emscripten-module.mjs) that ships beside the asset: exports come from its
// `d._QTS_X=b.Y` assignments, imports are recognised by what each glue
// function does. The asset itself gives the function types. Anything that
// is not recognised fails the generation: a new asset needs a human.
//
// Usage: go run ./gen -pkg DIR -out FILE
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/interopio/code-mode/internal/wasmbin"
	"github.com/interopio/code-mode/sandbox/wasmhost"
)

func main() {
	pkg := flag.String("pkg", "", "directory of the npm package (holds dist/emscripten-module.{mjs,wasm})")
	out := flag.String("out", "", "Go file to write")
	flag.Parse()
	src, err := generate(*pkg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// importRoles maps a recognisable fragment of a glue function's body to the
// role the FFI layer implements. Order matters: the first match wins.
var importRoles = []struct{ role, needle string }{
	{"assert_fail", "Assertion failed"},
	{"call_function", "callbacks.callFunction("},
	{"should_interrupt", "callbacks.shouldInterrupt("},
	{"load_module_source", "callbacks.loadModuleSource("},
	{"normalize_module", "callbacks.normalizeModule("},
	{"free_host_ref", "callbacks.freeHostRef("},
	{"resize_heap", ".grow("},
	{"setitimer", "clearTimeout("},
	{"localtime", "new Date(1E3*"},
	{"tzset", "`UTC${"},
	{"date_now", "Date.now()"},
	{"fd_write", "decode("},
	{"environ_sizes_get", ".length;a=0;for(var e of"},
	{"environ_get", "for(f of"},
	{"errno_52", "()=>52"},
	{"errno_70", "return 70"},
	{"keepalive_clear", "=!1;"},
}

func generate(pkg string) ([]byte, error) {
	glue, err := os.ReadFile(filepath.Join(pkg, "dist", "emscripten-module.mjs"))
	if err != nil {
		return nil, err
	}
	wasm, err := os.ReadFile(filepath.Join(pkg, "dist", "emscripten-module.wasm"))
	if err != nil {
		return nil, err
	}
	version, err := packageVersion(pkg)
	if err != nil {
		return nil, err
	}
	mod, err := wasmbin.Parse(wasm)
	if err != nil {
		return nil, err
	}
	g := string(glue)

	// Exports.
	exports := map[string]string{} // C name -> wasm export name
	for _, m := range regexp.MustCompile(`d\._(\w+)=b\.([\w$]+)`).FindAllStringSubmatch(g, -1) {
		exports[m[1]] = m[2]
	}
	ctor := regexp.MustCompile(`calledRun=!0;if\(!\w+\)\{\w+=!0;\w+\.(\w+)\(\)`).FindStringSubmatch(g)
	if ctor == nil {
		return nil, fmt.Errorf("glue: cannot find the __wasm_call_ctors call")
	}
	exports["__wasm_call_ctors"] = ctor[1]
	if len(exports) < 60 {
		return nil, fmt.Errorf("glue: found only %d exports", len(exports))
	}
	wasmExports := map[string]wasmbin.Export{}
	for _, e := range mod.Exports {
		wasmExports[e.Name] = e
	}
	for c, w := range exports {
		if e, ok := wasmExports[w]; !ok || e.Kind != wasmbin.KindFunc {
			return nil, fmt.Errorf("glue names export %s as %q, which the asset does not export as a function", c, w)
		}
	}

	// Imports: the object literal passed as the import module.
	// The glue instantiates with `var c={a:xa}`; xa is the import module.
	objName := regexp.MustCompile(`var \w+=\{a:(\w+)\};if\(\w+\.instantiateWasm\)`).FindStringSubmatch(g)
	if objName == nil {
		return nil, fmt.Errorf("glue: cannot find the import object")
	}
	obj := regexp.MustCompile(`[,; ]` + objName[1] + `=\{`).FindStringIndex(g)
	if obj == nil {
		return nil, fmt.Errorf("glue: cannot find the definition of import object %s", objName[1])
	}
	body, err := objectLiteral(g[obj[1]-1:])
	if err != nil {
		return nil, err
	}
	memVar := regexp.MustCompile(`getWasmMemory=function\(\)\{return (\w+)\}`).FindStringSubmatch(g)
	if memVar == nil {
		return nil, fmt.Errorf("glue: cannot find the wasm memory variable")
	}
	roles := map[string]string{} // import name -> role
	memoryImport := ""
	for _, kv := range splitTopLevel(body) {
		name, val, ok := strings.Cut(kv, ":")
		if !ok {
			return nil, fmt.Errorf("glue: bad import entry %q", kv)
		}
		if val == memVar[1] {
			memoryImport = name
			continue
		}
		// An identifier value names a function defined elsewhere: look at its body.
		if regexp.MustCompile(`^\w+$`).MatchString(val) {
			def := regexp.MustCompile(`[,;]` + regexp.QuoteMeta(val) + `=(a=>\{[^}]*\})`).FindStringSubmatch(g)
			if def != nil && strings.Contains(def[1], "onExit") {
				roles[name] = "proc_exit"
				continue
			}
			return nil, fmt.Errorf("glue: import %s = %s: unrecognised", name, val)
		}
		role := ""
		for _, r := range importRoles {
			if strings.Contains(val, r.needle) {
				role = r.role
				break
			}
		}
		if role == "" && val == `()=>N("")` || role == "" && regexp.MustCompile(`^\(\)=>\w+\(""\)$`).MatchString(val) {
			role = "abort"
		}
		if role == "" {
			return nil, fmt.Errorf("glue: import %s: unrecognised function %.80q", name, val)
		}
		roles[name] = role
	}
	if memoryImport == "" {
		return nil, fmt.Errorf("glue: no memory import")
	}
	seen := map[string]string{}
	for n, r := range roles {
		if other, dup := seen[r]; dup {
			return nil, fmt.Errorf("glue: imports %s and %s both look like %s", other, n, r)
		}
		seen[r] = n
	}

	// Check against the asset's own import section.
	var memMin uint32
	var importModule string
	for _, imp := range mod.Imports {
		importModule = imp.Module
		switch imp.Kind {
		case wasmbin.KindMemory:
			if imp.Name != memoryImport {
				return nil, fmt.Errorf("asset imports memory %q, glue provides %q", imp.Name, memoryImport)
			}
			memMin = imp.Min
		case wasmbin.KindFunc:
			if _, ok := roles[imp.Name]; !ok {
				return nil, fmt.Errorf("asset imports %s.%s, which the glue does not provide", imp.Module, imp.Name)
			}
		default:
			return nil, fmt.Errorf("asset imports %s.%s of unexpected kind %d", imp.Module, imp.Name, imp.Kind)
		}
	}
	funcImports := 0
	for _, imp := range mod.Imports {
		if imp.Kind == wasmbin.KindFunc {
			funcImports++
		}
	}
	if funcImports != len(roles) {
		return nil, fmt.Errorf("glue provides %d functions, asset imports %d", len(roles), funcImports)
	}

	sum := sha256.Sum256(wasm)
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by go run ./gen; DO NOT EDIT.\n")
	fmt.Fprintf(&b, "// Source: @jitl/quickjs-wasmfile-release-sync@%s\n\n", version)
	fmt.Fprintf(&b, "package ffi\n\n")
	fmt.Fprintf(&b, "var pinned = assetTable{\n")
	fmt.Fprintf(&b, "Package: %q,\nSHA256: %q,\nSize: %d,\n", "@jitl/quickjs-wasmfile-release-sync@"+version, hex.EncodeToString(sum[:]), len(wasm))
	fmt.Fprintf(&b, "ImportModule: %q,\nMemoryImport: %q,\nMemoryMinPages: %d,\n", importModule, memoryImport, memMin)
	fmt.Fprintf(&b, "Imports: map[string]asset{\n")
	for _, imp := range mod.Imports {
		if imp.Kind == wasmbin.KindFunc {
			fmt.Fprintf(&b, "%q: {%q, %s},\n", roles[imp.Name], imp.Name, typeLit(imp.Type))
		}
	}
	fmt.Fprintf(&b, "},\nExports: map[string]asset{\n")
	names := make([]string, 0, len(exports))
	for c := range exports {
		names = append(names, c)
	}
	sort.Strings(names)
	for _, c := range names {
		fmt.Fprintf(&b, "%q: {%q, %s},\n", c, exports[c], typeLit(wasmExports[exports[c]].Type))
	}
	fmt.Fprintf(&b, "},\n}\n")
	return format.Source(b.Bytes())
}

func packageVersion(pkg string) (string, error) {
	j, err := os.ReadFile(filepath.Join(pkg, "package.json"))
	if err != nil {
		return "", err
	}
	m := regexp.MustCompile(`"version":\s*"([^"]+)"`).FindSubmatch(j)
	if m == nil {
		return "", fmt.Errorf("package.json: no version")
	}
	return string(m[1]), nil
}

// typeLit writes a function type as the signature string ffi.asset holds
// (see sigLetters there): results, then ":", then parameters. A string keeps
// the table a constant the linker lays out, where slice literals made it
// 48 KB of init code.
func typeLit(t *wasmbin.FuncType) string {
	vt := func(ts []wasmhost.ValueType) string {
		var b strings.Builder
		for _, c := range ts {
			switch c {
			case wasmhost.I32:
				b.WriteByte('i')
			case wasmhost.I64:
				b.WriteByte('j')
			case wasmhost.F32:
				b.WriteByte('f')
			case wasmhost.F64:
				b.WriteByte('d')
			default:
				panic(fmt.Sprintf("value type 0x%x", byte(c)))
			}
		}
		return b.String()
	}
	return strconv.Quote(vt(t.Results) + ":" + vt(t.Params))
}

// objectLiteral returns the inside of the object literal that starts at s[0]=='{'.
func objectLiteral(s string) (string, error) {
	if s == "" || s[0] != '{' {
		return "", fmt.Errorf("glue: expected '{'")
	}
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"', '\'', '`':
			j, err := skipString(s, i)
			if err != nil {
				return "", err
			}
			i = j
		case '{', '(', '[':
			depth++
		case '}', ')', ']':
			depth--
			if depth == 0 {
				return s[1:i], nil
			}
		}
	}
	return "", fmt.Errorf("glue: unterminated object literal")
}

func skipString(s string, i int) (int, error) {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case q:
			return j, nil
		}
	}
	return 0, fmt.Errorf("glue: unterminated string")
}

// splitTopLevel splits an object literal's body at its top-level commas.
func splitTopLevel(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"', '\'', '`':
			j, err := skipString(s, i)
			if err != nil {
				return append(out, s[start:])
			}
			i = j
		case '{', '(', '[':
			depth++
		case '}', ')', ']':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}
