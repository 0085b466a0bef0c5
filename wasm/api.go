//go:build js && wasm

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	codemode "github.com/interopio/code-mode"
	"github.com/interopio/code-mode/internal/jsondec"
	"github.com/interopio/code-mode/internal/keys"
	"github.com/interopio/code-mode/internal/pagecheck"
	"github.com/interopio/code-mode/jsbridge"
	"github.com/interopio/code-mode/sandbox"
)

// factory is one IoCodeModeFactory result: the codemode instance and every
// function made for it and its sessions, released by dispose.
type factory struct {
	cm    *codemode.CodeMode
	funcs jsbridge.Funcs
	// tools registered, for the collector's pace (collector.go paceTools)
	tools atomic.Int64

	mu       sync.Mutex
	sessions map[*jsbridge.Funcs]struct{}
}

func newFactory(config, module Value) (Value, error) {
	f := &factory{sessions: map[*jsbridge.Funcs]struct{}{}}
	wrote := pageNumbers{}
	cfg, err := checkedConfig(config, f, wrote)
	if err != nil {
		return jsbridge.Undefined(), err
	}
	if !jsbridge.IsWasmModule(module) {
		return jsbridge.Undefined(), typeErrorf("newFactory: expected a compiled WebAssembly.Module of the QuickJS asset")
	}
	engine, err := sandbox.NewEngineFromModule(jsbridge.ModuleFromJS(module), sandbox.Config{
		Backend:     jsbridge.Backend(),
		MemoryLimit: int64(cfg.MemoryLimitMB) << 20,
	})
	if err != nil {
		// The page reads the cause, not the sandbox package's sentinel
		// ("sandbox: bad QuickJS asset: "), in the words of an asset
		// that could not be fetched or compiled (USAGE.md, Loading).
		loc := get(config, "wasmLocation").String()
		if errors.Is(err, sandbox.ErrAsset) {
			return jsbridge.Undefined(), fmt.Errorf("Cannot load the QuickJS asset from %s: %s", loc, strings.TrimPrefix(err.Error(), sandbox.ErrAsset.Error()+": "))
		}
		return jsbridge.Undefined(), fmt.Errorf("Cannot use the QuickJS asset from %s: %w", loc, err)
	}
	// config.tools are registered as registerTools registers them, so their
	// errors read as there and as in worker mode: codemode.New prefixes
	// them with its Go field's name ("Tools: ...").
	tools := cfg.Tools
	cfg.Tools = nil
	if f.cm, err = codemode.NewWithEngine(engine, cfg); err != nil {
		return jsbridge.Undefined(), jsConfigError(err, wrote)
	}
	if _, err := f.cm.RegisterTools(tools...); err != nil {
		f.cm.Close()
		return jsbridge.Undefined(), toolTypeError(err, "config.tools")
	}
	f.tools.Store(int64(len(tools)))
	return f.apiObject(), nil
}

// checkedConfig is the page's config as codemode takes it, or the config's
// first mistake. Checked before the engine is built, so a bad limit is
// reported as the config's, never as the asset's; the loader's checkConfig
// asks it when the asset failed to load, so that a config with both kinds
// of mistake names its own first (a fix of the path alone met the next).
func checkedConfig(config Value, f *factory, wrote pageNumbers) (codemode.Config, error) {
	cfg, err := parseConfig(config, f, wrote)
	if err != nil {
		return cfg, err
	}
	// The sandbox's crypto reads the host's Web Crypto (codemode leaves
	// crypto/rand out of GOOS=js builds).
	cfg.Random = jsbridge.WebCrypto{}
	// The sandbox's Intl takes time zones from the host's own Intl.
	cfg.TimeZones = hostTimeZone
	if cfg, err = codemode.ResolveConfig(cfg); err != nil {
		return cfg, jsConfigError(err, wrote)
	}
	return cfg, nil
}

// asTypeError turns bad-tool and bad-config errors into TypeErrors.
func asTypeError(err error) error {
	if errors.Is(err, codemode.ErrInvalidTool) || errors.Is(err, codemode.ErrDuplicateTool) || errors.Is(err, codemode.ErrInvalidConfig) {
		return &typeError{err.Error()}
	}
	return err
}

// toolTypeError is asTypeError for a tool of the list at path that could
// not be registered: the message says where it is in the caller's list,
// as the field errors of toolList do ('config.tools[3] ("orders.search"):
// inputSchema: ...'); the same words as worker mode's (worker-tools.mjs).
func toolTypeError(err error, path string) error {
	var te *codemode.ToolError
	if !errors.As(err, &te) {
		return asTypeError(err)
	}
	if path != "tool" {
		path = fmt.Sprintf("%s[%d]", path, te.Index)
	}
	return typeErrorf("%s (%s): %s: %s", path, keys.Quote(te.Name), te.Field, te.Reason)
}

func (f *factory) apiObject() Value {
	api := jsbridge.NewObject()
	f.funcs.Method(api, "registerTool", func(args []Value) any {
		return f.register(jsbridge.NewArray(arg(args, 0)), "tool")
	})
	f.funcs.Method(api, "registerTools", func(args []Value) any { return f.register(arg(args, 0), "tools") })
	// The worker's hold on the collector's pace (collector.go): its
	// release restores the pace and collects.
	f.funcs.Method(api, "holdCollector", func([]Value) any {
		release := holdCollector(f.tools.Load() < paceTools)
		return f.funcs.Once(func(Value, []Value) any {
			release(true)
			return jsbridge.Undefined()
		})
	})
	f.funcs.Method(api, "listTools", func([]Value) any {
		var sources []any
		for _, t := range f.cm.ListTools() {
			sources = append(sources, sourceValue(t.Source))
		}
		return jsbridge.NewArray(sources...)
	})
	f.funcs.Method(api, "createSession", func(args []Value) any { return f.createSession(arg(args, 0)) })
	// The loader's call once the factory is made, while the host is idle
	// (codemode.Prepare); nothing of a run depends on it.
	f.funcs.Method(api, "prepare", func([]Value) any {
		f.cm.Prepare()
		return jsbridge.Undefined()
	})
	f.funcs.Method(api, "dispose", func([]Value) any {
		f.cm.Close()
		f.mu.Lock()
		sessions := f.sessions
		f.sessions = map[*jsbridge.Funcs]struct{}{}
		f.mu.Unlock()
		f.funcs.Release()
		for sf := range sessions {
			sf.Release()
		}
		return jsbridge.Undefined()
	})
	return api
}

// register adds tools and returns the function that removes them.
func (f *factory) register(list Value, path string) any {
	release := holdCollector(f.tools.Load() < paceTools)
	defer release(false)
	tools, err := f.toolList(list, path)
	if err != nil {
		return err
	}
	unregister, err := f.cm.RegisterTools(tools...)
	if err != nil {
		return toolTypeError(err, path)
	}
	n := int64(len(tools))
	f.tools.Add(n)
	// Once: the function (and the tools it holds) is freed when called,
	// not at dispose; the loader calls it at most once.
	return f.funcs.Once(func(Value, []Value) any {
		unregister()
		f.tools.Add(-n)
		return jsbridge.Undefined()
	})
}

// toolList converts an array of ToolDefinitions.
func (f *factory) toolList(list Value, path string) ([]codemode.Tool, error) {
	if !jsbridge.IsArray(list) {
		return nil, typeErrorf("%s: expected an array of tool definitions, got %s", path, describe(list))
	}
	if tools, ok := toolsAtOnce(list, path); ok {
		return tools, nil
	}
	defs, err := jsbridge.Elements(list)
	if err != nil {
		return nil, typeErrorf("%s: reading the array threw: %v", path, plain(err))
	}
	tools := make([]codemode.Tool, len(defs))
	for i, def := range defs {
		elem := fmt.Sprintf("%s[%d]", path, i)
		if path == "tool" {
			elem = path // registerTool(tool): one tool, wrapped in an array
		}
		t, err := toolFromJS(def, elem)
		if err != nil {
			return nil, err
		}
		tools[i] = t
	}
	return tools, nil
}

// toolFromJS converts one ToolDefinition; its execute is called with
// (input, {context, signal}).
func toolFromJS(def Value, path string) (codemode.Tool, error) {
	if jsbridge.TypeOf(def) != jsbridge.TypeObject {
		return codemode.Tool{}, typeErrorf("%s: expected a tool definition object, got %s", path, describe(def))
	}
	if err := checkKeys(def, path, toolKeys, toolHints); err != nil {
		return codemode.Tool{}, err
	}
	name := get(def, "name")
	if jsbridge.TypeOf(name) != jsbridge.TypeString {
		return codemode.Tool{}, typeErrorf("%s.name: expected a string, got %s", path, describe(name))
	}
	// From here on the tool has a name, and the message gives it beside
	// its place, as toolTypeError does: "tools[17].execute" left the
	// caller counting through an adapter's or a catalog's list.
	at := fmt.Sprintf("%s (%s)", path, keys.Quote(name.String()))
	exec := get(def, "execute")
	if jsbridge.TypeOf(exec) != jsbridge.TypeFunction {
		return codemode.Tool{}, typeErrorf("%s: execute: expected a function, got %s", at, describe(exec))
	}
	t := codemode.Tool{Name: name.String(), Source: def}
	if d := get(def, "description"); !d.IsUndefined() {
		if jsbridge.TypeOf(d) != jsbridge.TypeString {
			return t, typeErrorf("%s: description: expected a string, got %s", at, describe(d))
		}
		t.Description = d.String()
	}
	a := get(def, "annotations")
	if !a.IsUndefined() && !a.IsNull() && (jsbridge.TypeOf(a) != jsbridge.TypeObject || jsbridge.IsArray(a)) {
		return t, typeErrorf("%s: annotations: expected an object (hints and your own metadata), got %s", at, describe(a))
	}
	validate, err := toolSchemas(def, at, &t)
	if err != nil {
		return t, err
	}
	if jsbridge.TypeOf(a) == jsbridge.TypeObject {
		if raw, err := jsbridge.ToJSON(a); err == nil {
			t.Annotations = annotationsOf(raw)
		}
	}
	setPageCalls(&t, jsbridge.NewArray(exec), jsbridge.NewArray(validate), 0)
	return t, nil
}

// toolsAtOnce converts a list of well-formed definitions in one call to the
// loader's converter (convertTools in web/src/schema.mjs), which gives
// their data as one JSON text: reading them field by field costs a
// crossing and a finalizer per value. Their execute functions and schema
// validations stay in the converter's arrays, read when a tool is called.
// ok is false without the loader or when a definition is not well-formed:
// the caller then reads the list field by field and reports the problem.
func toolsAtOnce(list Value, path string) (tools []codemode.Tool, ok bool) {
	convert := get(jsbridge.Global(), "__ioCodeModeSchema")
	if jsbridge.TypeOf(convert) != jsbridge.TypeFunction {
		return nil, false
	}
	atOnce := get(convert, "tools")
	if jsbridge.TypeOf(atOnce) != jsbridge.TypeFunction {
		return nil, false
	}
	res, err := jsbridge.Call(atOnce, list, path)
	if err != nil || jsbridge.TypeOf(res) != jsbridge.TypeObject {
		return nil, false
	}
	text, defs, execs, validates := get(res, "text"), get(res, "defs"), get(res, "execs"), get(res, "validates")
	if jsbridge.TypeOf(text) != jsbridge.TypeString || !jsbridge.IsArray(defs) {
		return nil, false
	}
	n, err := jsbridge.Len(defs)
	if err != nil {
		return nil, false
	}
	// The text's bytes, copied into Go once (a string of them was a
	// second copy of the whole catalog); the schemas are views of them,
	// which the core copies (compileTool) and does not keep.
	records, ok := splitRecords(jsbridge.StringBytes(text), n)
	if !ok {
		return nil, false
	}
	tools = make([]codemode.Tool, n)
	for i, f := range records {
		t := codemode.Tool{Source: &pageTool{defs: defs, i: i, checked: string(f[5]) == "1"}}
		if !jsonString(f[0], &t.Name) || len(f[1]) > 0 && !jsonString(f[1], &t.Description) {
			return nil, false
		}
		if len(f[2]) > 0 {
			t.InputSchema = json.RawMessage(f[2])
		}
		if len(f[3]) > 0 {
			t.OutputSchema = json.RawMessage(f[3])
		}
		if len(f[4]) > 0 {
			t.Annotations = annotationsOf(f[4]) // as toolFromJS: annotations that are not an object are none
		}
		setPageCalls(&t, execs, validates, i)
		tools[i] = t
	}
	return tools, true
}

// pageTool is the Source of a tool read by toolsAtOnce: its definition,
// read from the converter's array when first needed (listTools, toolFilter,
// onToolCall), so that registering costs no crossing per tool.
type pageTool struct {
	defs Value
	i    int
	once sync.Once
	def  Value
	// checked: the worker's page walked the tool's schemas with the
	// core's own check (web/src/worker-tools.mjs), so the core need not.
	checked bool
}

// SchemasChecked tells the core to skip its walk of the tool's schemas:
// only the worker's page sets it, and the page made those texts itself.
func (p *pageTool) SchemasChecked(pagecheck.Token) bool { return p.checked }

// sourceValue is the definition a tool was registered with.
func sourceValue(source any) any {
	if p, ok := source.(*pageTool); ok {
		p.once.Do(func() { p.def = element(p.defs, p.i) })
		return p.def
	}
	return source
}

// element reads one element of the converter's arrays (undefined if that
// fails, which a plain array does not).
func element(list Value, i int) Value {
	v, err := jsbridge.Element(list, i)
	if err != nil {
		return jsbridge.Undefined()
	}
	return v
}

// splitRecords splits convertTools' text into n records of six fields
// (JSON text never holds the separators \x1e and \x1f), by IndexByte's
// search: a loop judging each byte of a catalog's text was 3% of
// registering it. A field's other bytes are judged as JSON by its reader.
func splitRecords(text []byte, n int) ([][6][]byte, bool) {
	if n == 0 {
		return nil, len(text) == 0
	}
	records := make([][6][]byte, 0, n)
	for more := true; more; {
		var rec []byte
		rec, text, more = bytes.Cut(text, []byte{0x1e})
		var r [6][]byte
		for f := range 5 {
			var ok bool
			if r[f], rec, ok = bytes.Cut(rec, []byte{0x1f}); !ok {
				return nil, false
			}
		}
		if bytes.IndexByte(rec, 0x1f) >= 0 {
			return nil, false
		}
		r[5] = rec
		records = append(records, r)
	}
	return records, len(records) == n
}

// jsonString decodes a JSON string: jsondec's one pass, where most have
// no escape, and json.Unmarshal's scan, decoder and reflection were a
// twentieth of registering a catalog in a worker.
func jsonString(s []byte, dst *string) bool {
	v, err := jsondec.Decode(s, jsondec.Options{})
	str, ok := v.(string)
	*dst = str
	return err == nil && ok
}

// annotationsOf decodes a tool's annotations, none unless the text is an
// object, as json.Unmarshal into the map did: its scan and reflection were
// a fifth of registering an MCP server's tools (each has its hints).
func annotationsOf(s []byte) map[string]any {
	v, _ := jsondec.Decode(s, jsondec.Options{})
	m, _ := v.(map[string]any)
	return m
}

// toolSchemas reads a definition's inputSchema and outputSchema into t. The
// loader's converter (web/src/schema.mjs, set on the global) turns schema
// objects of libraries into JSON Schema and returns their own validations:
// validate is [input's, output's] when either has one (as the converter's
// convertTools gives them), else undefined. Without the loader, schemas
// must be JSON.
func toolSchemas(def Value, path string, t *codemode.Tool) (validate Value, err error) {
	validate = jsbridge.Undefined()
	own := [2]Value{jsbridge.Undefined(), jsbridge.Undefined()}
	defer func() {
		if err == nil && (!own[0].IsUndefined() || !own[1].IsUndefined()) {
			validate = jsbridge.NewArray(own[0], own[1])
		}
	}()
	convert := get(jsbridge.Global(), "__ioCodeModeSchema")
	for k, s := range []struct {
		field string
		dst   *json.RawMessage
	}{{"inputSchema", &t.InputSchema}, {"outputSchema", &t.OutputSchema}} {
		v := get(def, s.field)
		if v.IsUndefined() || v.IsNull() {
			continue
		}
		if jsbridge.TypeOf(convert) == jsbridge.TypeFunction {
			res, err := jsbridge.Call(convert, v, path+": "+s.field)
			if err != nil {
				return validate, &typeError{plain(err).Error()}
			}
			if f := get(res, "validate"); jsbridge.TypeOf(f) == jsbridge.TypeFunction {
				own[k] = f
			}
			v = get(res, "schema")
		} else if jsbridge.TypeOf(v) != jsbridge.TypeObject && jsbridge.TypeOf(v) != jsbridge.TypeBoolean {
			return validate, typeErrorf("%s: %s: expected a JSON Schema object, got %s", path, s.field, describe(v))
		}
		raw, err := jsbridge.ToJSON(v)
		if err != nil {
			return validate, typeErrorf("%s: %s: not JSON: %v", path, s.field, err)
		}
		*s.dst = raw
	}
	return validate, nil
}

// abortReason is the reason a tool's signal aborts with when its run ends:
// the caller's own reason when the caller aborted the run (the value it
// gave abort(), as it gave it), otherwise an error saying how the run ended.
func abortReason(ctx context.Context) Value {
	cause := context.Cause(ctx)
	var je *jsbridge.Error
	switch {
	case errors.As(cause, &je):
		return je.Value
	case errors.Is(cause, codemode.ErrClosed):
		return jsbridge.NewError("AbortError", "the run was stopped: its session or factory was disposed")
	case errors.Is(cause, sandbox.ErrTimeout):
		return jsbridge.NewError("TimeoutError", "the run timed out before the tool finished")
	}
	return jsbridge.NewError("AbortError", "the run ended before the tool finished")
}
