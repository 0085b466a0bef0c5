package codemode

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
)

func testTool(name string) Tool {
	return Tool{Name: name, Execute: noopToolExecute}
}

func TestRegistryToolNames(t *testing.T) {
	tests := []struct {
		name    string
		wantErr string // "" = valid
	}{
		{"orders.search", ""},
		{"a", ""},
		{"$_-9.x-y_z$", ""},
		{strings.Repeat("a", 128), ""},
		{"", `tool name "": must be 1..128 characters of [A-Za-z0-9_$.-], got 0`},
		{strings.Repeat("a", 129), "must be 1..128 characters of [A-Za-z0-9_$.-], got 129"},
		{"a b", `tool name "a b": must be 1..128 characters of [A-Za-z0-9_$.-], found ' ' at offset 1`},
		{"orders/search", `found '/' at offset 6`},
		{"café", `found 'é' at offset 3`},
		{".orders", "namespaces must be non-empty"},
		{"orders.", "namespaces must be non-empty"},
		{"orders..search", "namespaces must be non-empty"},
		{".", "namespaces must be non-empty"},
		{"then", `tool name "then": must not end in "then": await tools would call the tool`},
		{"orders.then", `tool name "orders.then": must not end in "then": await tools.orders would call the tool`},
		{"orders.then.x", ""},
		{"orders.thenx", ""},
		{"orders.Then", ""},
		{"toJSON", `tool name "toJSON": must not end in "toJSON": JSON.stringify(tools) would call the tool`},
		{"orders.toJSON", `tool name "orders.toJSON": must not end in "toJSON": JSON.stringify(tools.orders) would call the tool`},
		{"orders.toJSON.x", ""},
		{"orders.tojson", ""},
		{"orders.xtoJSON", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := newRegistry().add(testTool(tt.name))
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error = %v, want one containing %q", err, tt.wantErr)
			}
			if !errors.Is(err, ErrInvalidTool) {
				t.Fatalf("error %v does not wrap ErrInvalidTool", err)
			}
		})
	}
}

func TestRegistryAddAllOrNothing(t *testing.T) {
	badSchema := testTool("bad.schema")
	badSchema.InputSchema = json.RawMessage(`{"type":"nope"}`)
	badOut := testTool("bad.output")
	badOut.OutputSchema = json.RawMessage(`{"minimum":"x"}`)
	notObject := testTool("bad.array")
	notObject.InputSchema = json.RawMessage(`[1]`)
	notJSON := testTool("bad.json")
	notJSON.InputSchema = json.RawMessage(`{"type":`)
	noExec := Tool{Name: "no.exec"}

	// index and field: the *ToolError's, which bindings turn into
	// 'config.tools[1] ("bad name"): name: ...'.
	tests := []struct {
		name    string
		batch   []Tool
		is      error
		wantErr string
		index   int
		field   string
	}{
		{"invalid name", []Tool{testTool("ok.one"), testTool("bad name")}, ErrInvalidTool, `tool name "bad name"`, 1, "name"},
		{"nil Execute", []Tool{testTool("ok.one"), noExec}, ErrInvalidTool, `tool "no.exec": Execute: must not be nil`, 1, "Execute"},
		{"bad input schema", []Tool{testTool("ok.one"), badSchema}, ErrInvalidTool, `tool "bad.schema": inputSchema:`, 1, "inputSchema"},
		{"bad output schema", []Tool{testTool("ok.one"), badOut}, ErrInvalidTool, `tool "bad.output": outputSchema:`, 1, "outputSchema"},
		{"schema not an object", []Tool{notObject}, ErrInvalidTool, "must be a JSON Schema object or boolean, got array", 0, "inputSchema"},
		{"schema not JSON", []Tool{notJSON}, ErrInvalidTool, "inputSchema: must be valid JSON", 0, "inputSchema"},
		{"duplicate in batch", []Tool{testTool("ok.one"), testTool("dup"), testTool("dup")}, ErrDuplicateTool, `tool name "dup": appears more than once`, 2, "name"},
		{"duplicate of registered", []Tool{testTool("ok.one"), testTool("existing")}, ErrDuplicateTool, `tool name "existing": already registered`, 1, "name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRegistry()
			if _, err := r.add(testTool("existing")); err != nil {
				t.Fatal(err)
			}
			remove, err := r.add(tt.batch...)
			if err == nil || remove != nil {
				t.Fatalf("add succeeded, want error")
			}
			if !errors.Is(err, tt.is) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error = %v, want %v containing %q", err, tt.is, tt.wantErr)
			}
			var te *ToolError
			if !errors.As(err, &te) || te.Index != tt.index || te.Field != tt.field || te.Name != tt.batch[tt.index].Name {
				t.Fatalf("error = %#v, want a *ToolError at index %d, field %s, name %q", err, tt.index, tt.field, tt.batch[tt.index].Name)
			}
			if want := "tool " + strconv.Quote(te.Name) + ": " + te.Field + ": " + te.Reason; te.Field != "name" && !strings.HasSuffix(err.Error(), want) {
				t.Errorf("error = %q, want it to end in %q", err, want)
			}
			if _, ok := r.lookup("ok.one"); ok {
				t.Fatal("part of a rejected batch was registered")
			}
			if got := len(r.snapshot()); got != 1 {
				t.Fatalf("registry has %d tools, want 1", got)
			}
		})
	}
}

func TestRegistryRemoveAndSnapshot(t *testing.T) {
	r := newRegistry()
	removeA, err := r.add(testTool("b.two"), testTool("a.one"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.add(testTool("c")); err != nil {
		t.Fatal(err)
	}
	if got := snapshotNames(r); got != "a.one,b.two,c" {
		t.Fatalf("snapshot = %s", got)
	}
	removeA()
	if got := snapshotNames(r); got != "c" {
		t.Fatalf("after remove: %s", got)
	}
	// The name is free again; the old remove must not take the new tool.
	if _, err := r.add(testTool("a.one")); err != nil {
		t.Fatal(err)
	}
	removeA()
	if _, ok := r.lookup("a.one"); !ok {
		t.Fatal("a second call of an old remove deleted a newer tool")
	}
}

func TestRegistryCopiesInputs(t *testing.T) {
	schema := []byte(`{"type":"object","properties":{"n":{"type":"integer"}}}`)
	ann := map[string]any{"readOnly": true}
	tl := testTool("t")
	tl.InputSchema, tl.Annotations = schema, ann
	r := newRegistry()
	if _, err := r.add(tl); err != nil {
		t.Fatal(err)
	}
	copy(schema, `{"type":"string"`)
	ann["readOnly"] = false
	e, _ := r.lookup("t")
	if !strings.HasPrefix(string(e.info.InputSchema), `{"type":"object"`) || e.info.Annotations["readOnly"] != true {
		t.Fatalf("registry shares caller memory: %s %v", e.info.InputSchema, e.info.Annotations)
	}
	if err := e.validate(json.RawMessage(`{"n":"x"}`)); err == nil || !strings.Contains(err.Error(), "/n: type: got string, want integer") {
		t.Fatalf("validate = %v", err)
	}
	null := testTool("null.schema")
	null.InputSchema = json.RawMessage(" null ")
	if _, err := r.add(null); err != nil {
		t.Fatal(err)
	}
	e, _ = r.lookup("null.schema")
	if e.info.InputSchema != nil || e.validate(json.RawMessage(`"anything"`)) != nil {
		t.Fatal("a null schema must mean: any input")
	}
}

func TestRegistryConcurrent(t *testing.T) {
	r := newRegistry()
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				remove, err := r.add(testTool(fmt.Sprintf("w%d.t%d", i, j)))
				if err != nil {
					t.Error(err)
					return
				}
				_ = r.snapshot()
				_, _ = r.lookup("w0.t0")
				if j%2 == 0 {
					remove()
				}
			}
		}(i)
	}
	wg.Wait()
	if got := len(r.snapshot()); got != 8*25 {
		t.Fatalf("got %d tools, want %d", got, 8*25)
	}
}

func snapshotNames(r *registry) string {
	var names []string
	for _, e := range r.snapshot() {
		names = append(names, e.info.Name)
	}
	return strings.Join(names, ",")
}

// TestSchemaMustBeJSONSchema: an object none of whose keys is a JSON Schema
// keyword is rejected (a validator would accept it as "anything").
func TestSchemaMustBeJSONSchema(t *testing.T) {
	for _, tc := range []struct {
		schema string
		want   string // "" = accepted
	}{
		{`{"type":"object"}`, ""},
		{`{}`, ""},
		{`true`, ""},
		{`{"$ref":"#/$defs/x","$defs":{"x":{}}}`, ""},
		{`{"nullable":true}`, ""},
		{`{"status":"string"}`, `none of its keys (status) is a JSON Schema keyword`},
		{`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6}`, `(a, b, c, d, e, ...)`},
		{`[1]`, `must be a JSON Schema object or boolean, got array`},
	} {
		tl := testTool("t.x")
		tl.InputSchema = json.RawMessage(tc.schema)
		_, err := compileTool(tl)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: unexpected %v", tc.schema, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrInvalidTool)):
			t.Errorf("%s: got %v, want an ErrInvalidTool containing %q", tc.schema, err, tc.want)
		}
	}
}

// TestToolErrorIndex: the names a CodeMode refuses for being taken
// elsewhere (a session's, the factory's) say which tool of the batch.
func TestToolErrorIndex(t *testing.T) {
	cm := newTestCodeMode(t, Config{})
	s, err := cm.NewSession(testTool("mine.a"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, tc := range []struct {
		name  string
		try   func() error
		index int
		want  string
	}{
		{"RegisterTools of a session's name", func() error {
			_, err := cm.RegisterTools(testTool("free.a"), testTool("mine.a"))
			return err
		}, 1, `codemode: duplicate tool: tool name "mine.a": already a tool of a session (createSession's tools)`},
		{"NewSession with a factory's name", func() error {
			_, err := cm.NewSession(testTool("free.b"), testTool("orders.search"))
			return err
		}, 1, `codemode: duplicate tool: tool name "orders.search": already registered on the factory`},
		{"NewSession with a bad schema", func() error {
			bad := testTool("bad.c")
			bad.InputSchema = json.RawMessage(`{"type":"strin"}`)
			_, err := cm.NewSession(testTool("free.c"), testTool("free.d"), bad)
			return err
		}, 2, `codemode: invalid tool: tool "bad.c": inputSchema: /type: "strin" is not a type`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.try()
			var te *ToolError
			if !errors.As(err, &te) || te.Index != tc.index || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("error = %v, want a *ToolError at index %d: %s", err, tc.index, tc.want)
			}
		})
	}
}
