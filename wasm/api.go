//go:build js && wasm

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"syscall/js"

	codemode "github.com/interopio/code-mode"
	"github.com/interopio/code-mode/jsbridge"
	"github.com/interopio/code-mode/sandbox"
)

// factory is one IoCodeModeFactory result: the codemode instance and every
// js.Func made for it, released by dispose.
type factory struct {
	cm *codemode.CodeMode

	mu       sync.Mutex
	funcs    []js.Func
	sessions map[*sessionFuncs]struct{}
}

func newFactory(config, module js.Value) (js.Value, error) {
	f := &factory{sessions: map[*sessionFuncs]struct{}{}}
	cfg, err := parseConfig(config, f)
	if err != nil {
		return js.Undefined(), err
	}
	// Checked before the engine is built, so a bad limit is reported as
	// the config's, never as the asset's.
	if cfg, err = codemode.ResolveConfig(cfg); err != nil {
		return js.Undefined(), jsConfigError(err)
	}
	if module.IsUndefined() || !module.InstanceOf(js.Global().Get("WebAssembly").Get("Module")) {
		return js.Undefined(), typeErrorf("newFactory: expected a compiled WebAssembly.Module of the QuickJS asset")
	}
	engine, err := sandbox.NewEngineFromModule(jsbridge.ModuleFromJS(module), sandbox.Config{
		Backend:     jsbridge.Backend(),
		MemoryLimit: int64(cfg.MemoryLimitMB) << 20,
	})
	if err != nil {
		return js.Undefined(), fmt.Errorf("Cannot use the QuickJS asset from %s: %w", get(config, "wasmLocation").String(), err)
	}
	if f.cm, err = codemode.NewWithEngine(engine, cfg); err != nil {
		return js.Undefined(), jsConfigError(err)
	}
	return f.apiObject(), nil
}

// asTypeError turns bad-tool and bad-config errors into TypeErrors.
func asTypeError(err error) error {
	if errors.Is(err, codemode.ErrInvalidTool) || errors.Is(err, codemode.ErrDuplicateTool) || errors.Is(err, codemode.ErrInvalidConfig) {
		return &typeError{err.Error()}
	}
	return err
}

// method adds a function property whose js.Func the factory releases on
// dispose.
func (f *factory) method(obj js.Value, name string, fn func(args []js.Value) any) {
	jf := jsbridge.Func(func(_ js.Value, args []js.Value) any { return fn(args) })
	f.mu.Lock()
	f.funcs = append(f.funcs, jf)
	f.mu.Unlock()
	obj.Set(name, jf.Value)
}

func newObject() js.Value { return js.Global().Get("Object").New() }

func (f *factory) apiObject() js.Value {
	api := newObject()
	f.method(api, "registerTool", func(args []js.Value) any {
		return f.register(js.Global().Get("Array").Call("of", arg(args, 0)), "tool")
	})
	f.method(api, "registerTools", func(args []js.Value) any { return f.register(arg(args, 0), "tools") })
	f.method(api, "listTools", func([]js.Value) any {
		list := js.Global().Get("Array").New()
		for _, t := range f.cm.ListTools() {
			list.Call("push", t.Source)
		}
		return list
	})
	f.method(api, "createSession", func(args []js.Value) any { return f.createSession(arg(args, 0)) })
	f.method(api, "dispose", func([]js.Value) any {
		f.cm.Close()
		f.mu.Lock()
		funcs, sessions := f.funcs, f.sessions
		f.funcs, f.sessions = nil, map[*sessionFuncs]struct{}{}
		f.mu.Unlock()
		for _, jf := range funcs {
			jf.Release()
		}
		for sf := range sessions {
			sf.release()
		}
		return js.Undefined()
	})
	return api
}

// register adds tools and returns the function that removes them.
func (f *factory) register(list js.Value, path string) any {
	tools, err := f.toolList(list, path)
	if err != nil {
		return err
	}
	unregister, err := f.cm.RegisterTools(tools...)
	if err != nil {
		return asTypeError(err)
	}
	var jf js.Func
	jf = js.FuncOf(func(js.Value, []js.Value) any {
		unregister()
		return js.Undefined()
	})
	f.mu.Lock()
	f.funcs = append(f.funcs, jf)
	f.mu.Unlock()
	return jf.Value
}

// toolList converts an array of ToolDefinitions.
func (f *factory) toolList(list js.Value, path string) ([]codemode.Tool, error) {
	if !js.Global().Get("Array").Call("isArray", list).Bool() {
		return nil, typeErrorf("%s: expected an array of tool definitions, got %s", path, describe(list))
	}
	tools := make([]codemode.Tool, list.Length())
	for i := range tools {
		elem := fmt.Sprintf("%s[%d]", path, i)
		if path == "tool" {
			elem = path // registerTool(tool): one tool, wrapped in an array
		}
		t, err := toolFromJS(list.Index(i), elem)
		if err != nil {
			return nil, err
		}
		tools[i] = t
	}
	return tools, nil
}

// toolFromJS converts one ToolDefinition; its execute is called with
// (input, {context, signal}).
func toolFromJS(def js.Value, path string) (codemode.Tool, error) {
	if def.Type() != js.TypeObject {
		return codemode.Tool{}, typeErrorf("%s: expected a tool definition object, got %s", path, describe(def))
	}
	if err := checkKeys(def, path, toolKeys, nil); err != nil {
		return codemode.Tool{}, err
	}
	name := get(def, "name")
	if name.Type() != js.TypeString {
		return codemode.Tool{}, typeErrorf("%s.name: expected a string, got %s", path, describe(name))
	}
	exec := get(def, "execute")
	if exec.Type() != js.TypeFunction {
		return codemode.Tool{}, typeErrorf("%s.execute: expected a function, got %s", path, describe(exec))
	}
	t := codemode.Tool{Name: name.String(), Source: def}
	if d := get(def, "description"); !d.IsUndefined() {
		if d.Type() != js.TypeString {
			return t, typeErrorf("%s.description: expected a string, got %s", path, describe(d))
		}
		t.Description = d.String()
	}
	for _, s := range []struct {
		field string
		dst   *json.RawMessage
	}{{"inputSchema", &t.InputSchema}, {"outputSchema", &t.OutputSchema}} {
		v := def.Get(s.field)
		if v.IsUndefined() || v.IsNull() {
			continue
		}
		if v.Type() != js.TypeObject && v.Type() != js.TypeBoolean {
			return t, typeErrorf("%s.%s: expected a JSON Schema object, got %s", path, s.field, describe(v))
		}
		raw, err := jsbridge.ToJSON(v)
		if err != nil {
			return t, typeErrorf("%s.%s: not JSON: %v", path, s.field, err)
		}
		*s.dst = raw
	}
	if a := get(def, "annotations"); a.Type() == js.TypeObject {
		if raw, err := jsbridge.ToJSON(a); err == nil {
			json.Unmarshal(raw, &t.Annotations)
		}
	}
	t.Execute = func(ctx context.Context, input json.RawMessage, c codemode.Call) (json.RawMessage, error) {
		in, err := jsbridge.FromJSON(input)
		if err != nil {
			return nil, err
		}
		ctrl := js.Global().Get("AbortController").New()
		stop := context.AfterFunc(ctx, func() {
			// On its own goroutine: a panic here would end the Go program.
			defer func() { recover() }()
			ctrl.Call("abort", jsbridge.NewError("AbortError", "the run ended before the tool finished (it finished, timed out or was cancelled)"))
		})
		defer stop()
		opts := newObject()
		opts.Set("context", jsValue(c.Context))
		opts.Set("signal", ctrl.Get("signal"))
		ret, err := call(exec, in, opts) // execute as it was when registered
		if err != nil {
			return nil, plain(err)
		}
		v, err := awaitCtx(ctx, ret)
		if err != nil {
			return nil, plain(err)
		}
		switch v.Type() {
		case js.TypeUndefined:
			return nil, nil
		case js.TypeFunction, js.TypeSymbol:
			return nil, fmt.Errorf("the tool returned a %s, which is not JSON data", v.Type())
		}
		out, err := jsbridge.ToJSON(v)
		if err != nil {
			return nil, fmt.Errorf("the tool returned a value that is not JSON data: %v", plain(err))
		}
		return out, nil
	}
	return t, nil
}
