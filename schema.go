package codemode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"

	"github.com/interopio/code-mode/internal/jsondec"
	"github.com/interopio/code-mode/third_party/jsonschema"
)

// schemaURL is the made-up location each tool schema is compiled under. It
// is hierarchical so relative "$ref"s resolve to other mem: URLs, which the
// loader below then refuses.
const (
	schemaBase = "mem:///codemode/"
	schemaURL  = schemaBase + "schema.json"
)

// errInvalidInput is wrapped by every input validation failure: a tool
// input against its inputSchema, an LLM tool's arguments. It is not
// exported: such failures reach the model (an error thrown in its code, or
// a result with ErrorCodeInvalidInput), never a Go caller's error, whose
// own mistakes are ErrInvalidConfig, ErrInvalidTool and ErrDuplicateTool.
var errInvalidInput = errors.New("invalid input")

// inputValidator is a tool's inputSchema. A plain schema (see plainSchema)
// is compiled by the full validator only when an input is not surelyValid:
// valid input, the common case, never needs it.
type inputValidator struct {
	plain          bool // see plainSchema; compiled without the meta-schema
	formatAsserted bool // see plainSchema
	doc            any  // the decoded schema
	// levels is readLevels of a plain schema, -1 for any other: how deep
	// surelyValid reads an input.
	levels int
	// step is how many of prepare's steps are done (stepsPrepared: all).
	step int

	// The compiled schema, once compiled (done); mu held while compiling.
	// A compile that its run's stop ended is kept (comp): the next call
	// goes on with it.
	mu     sync.Mutex
	done   bool
	comp   *jsonschema.Compiler
	schema *jsonschema.Schema
	err    error
}

// stepsPrepared is the number of prepare's steps.
const stepsPrepared = 4

// noRemoteLoader refuses every URL the schema itself does not contain:
// compiling a tool must never touch the network or the file system (the
// library's default loader reads files).
type noRemoteLoader struct{}

func (noRemoteLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("remote $ref %q is not allowed: put the definition under $defs", strings.TrimPrefix(url, schemaBase))
}

// decodeNumbers decodes a schema or an input exactly as
// jsonschema.UnmarshalJSON (a json.Decoder with UseNumber) gives it to the
// validator, in one pass: every tool call's input is decoded so (by check,
// with strings that share the input's bytes), and the reflective decoder
// and its reader were most of the input check's time on the page. On an
// error, callers ask jsonschema.UnmarshalJSON for encoding/json's words.
func decodeNumbers(raw []byte) (any, error) {
	return jsondec.Decode(raw, jsondec.Options{Numbers: true})
}

// compileSchema compiles a JSON Schema document. Draft 2020-12 is the default;
// "$schema" may select draft-07 (or 4, 6, 2019-09; see schemaDraft), whose
// meta-schemas are embedded in the library. A plain schema is compiled on
// first need.
func compileSchema(raw json.RawMessage) (*inputValidator, error) {
	v := &inputValidator{}
	if err := v.prepare(raw, nil); err != nil {
		return nil, err
	}
	return v, nil
}

// prepare takes v through what is left of compileSchema's steps for raw
// (the decode, the walks, a schema that is not plain compiled), ending
// with errStopped once stop, if not nil, says so: asked before each step
// and by the compiler. A tool's first call prepares its schema inside its
// run, and an enum of 1,000,000 values was decoded and walked for a second
// past the run's timeout in a page. The steps done are kept: the next call
// goes on from there, so a schema slower to prepare than a run's whole
// time is prepared in the end (a compile stopped too, compiledStop).
func (v *inputValidator) prepare(raw json.RawMessage, stop func() bool) error {
	for ; v.step < stepsPrepared; v.step++ {
		if stop != nil && stop() {
			return errStopped
		}
		switch v.step {
		case 0:
			// The decode asks stop for its sign of life only (sandbox.Beat):
			// stopped, it would start over.
			doc, err := jsondec.Decode(raw, jsondec.Options{Numbers: true, Beat: stop})
			if err != nil {
				if doc, err = jsonschema.UnmarshalJSON(bytes.NewReader(raw)); err != nil {
					return fmt.Errorf("must be valid JSON: %v", err)
				}
			}
			v.doc = doc
		case 1:
			applyNullable(raw, v.doc)
			readAsMeant(raw, v.doc)
		case 2:
			v.plain, v.formatAsserted = plainSchema(v.doc)
			v.levels = -1
			if v.plain {
				v.levels = readLevels(v.doc, 0)
			}
		case 3:
			// Compile errors are reported now; a plain schema has none (the
			// compiler fails only on references, ids, anchors and patterns).
			if !v.plain {
				if _, err := v.compiledStop(stop); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// compiled is the schema compiled by the full validator, on first use.
func (v *inputValidator) compiled() (*jsonschema.Schema, error) { return v.compiledStop(nil) }

// compiledStop is compiled, ended with errStopped once stop, if not nil,
// says so: a first call compiles the schema inside its run, and an anyOf
// of 100,000 alternatives compiled for seconds past the run's timeout
// (under GOOS=js nothing else runs meanwhile, the page's thread
// in-thread). The compile stopped is kept, and the next call goes on with
// it: that anyOf takes longer than a run of 2 s under GOOS=js, and
// compiled from the start each time it was never made.
func (v *inputValidator) compiledStop(stop func() bool) (*jsonschema.Schema, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.done {
		return v.schema, v.err
	}
	c := v.comp
	var err error
	if c == nil {
		c = jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		c.UseLoader(noRemoteLoader{})
		if v.plain {
			c.SkipMetaValidation()
		}
		err = c.AddResource(schemaURL, v.doc)
	}
	c.StopWhen(stop)
	var sch *jsonschema.Schema
	if err == nil {
		if sch, err = c.Compile(schemaURL); errors.Is(err, jsonschema.ErrStopped) {
			v.comp = c
			return nil, errStopped
		} else if err != nil {
			err = errors.New(cleanCompileError(err))
		}
	}
	v.comp = nil
	if err != nil && stop != nil && stop() {
		return nil, errStopped
	}
	v.done = true
	if v.err = err; err == nil {
		if v.err = checkRefCycles(sch, stop); v.err == nil {
			v.schema = sch
		}
	}
	return v.schema, v.err
}

// cleanCompileError drops the internal mem: URL, which means nothing to the
// tool author, and the library's "failing loading" wrapper around our own
// loader's message.
func cleanCompileError(err error) string {
	// A reference that points nowhere, or that the compiler cannot parse,
	// is named by its path in the schema, as checkInputSchema names a
	// problem: "json-pointer in "#/$defs/nope" not found" alone left the
	// author to search a large schema for it. web/src/refcycle.mjs says
	// the same.
	var re *jsonschema.RefError
	if errors.As(err, &re) {
		return refErrorPath(re.Location) + ": " + cleanCompileError(re.Err)
	}
	var le *jsonschema.LoadURLError
	if errors.As(err, &le) && le.Err != nil {
		err = le.Err
	}
	msg := err.Error()
	msg = strings.ReplaceAll(msg, `"`+schemaURL+`"`, "schema")
	msg = strings.ReplaceAll(msg, "'"+schemaURL, "'")
	msg = strings.ReplaceAll(msg, schemaURL, "")
	msg = strings.ReplaceAll(msg, schemaBase, "")
	var pe *jsonschema.JSONPointerNotFoundError
	if errors.As(err, &pe) {
		msg += openAPIRefHint(strings.TrimPrefix(pe.URL, schemaURL))
	}
	return msg
}

// refErrorPath is the path of a schema location ("mem:///...#/a~1b/$ref")
// as schemaError writes one: its JSON pointer's tokens unescaped
// ("/a/b/$ref").
func refErrorPath(loc string) string {
	_, ptr, _ := strings.Cut(loc, "#")
	var b strings.Builder
	for _, tok := range strings.Split(ptr, "/")[1:] {
		if t, err := url.PathUnescape(tok); err == nil {
			tok = t
		}
		b.WriteString("/")
		b.WriteString(strings.NewReplacer("~1", "/", "~0", "~").Replace(tok))
	}
	return b.String()
}

// openAPIRefHint explains a reference into an OpenAPI document's
// components ("#/components/schemas/Pet"), which a tool's schema copied
// out of the document (an operation's parameters, a generator's output)
// keeps without the document; web/src/refcycle.mjs says the same.
func openAPIRefHint(ref string) string {
	if !strings.HasPrefix(ref, "#/components/") {
		return ""
	}
	name := ref[strings.LastIndexByte(ref, '/')+1:]
	return fmt.Sprintf(" (a reference into an OpenAPI document's components, which this schema does not hold: copy that schema under $defs and refer to it as %q)", "#/$defs/"+name)
}

// maxValidationDepth bounds how deep the validator nests, one level per
// schema it applies inside another: the value's nesting times the schema's
// chain of $ref, allOf, anyOf, ... per level. Under GOOS=js each level is a
// few frames on the JavaScript engine's stack, and an overflow there ended
// the Go program: a recursive schema taking four in-place steps per level
// ({"$ref"} to {"$ref"} ... back to the node) checked against an input
// nested 999 levels (the sandbox sends up to 1,000) stopped the engine.
// Twice maxParseDepth: a schema recursing once per level (a tree's
// "children": {"items": {"$ref": "#"}}) checks any value the sandbox sends.
const maxValidationDepth = 2 * maxParseDepth

// errValidationDepth is a check past maxValidationDepth.
var errValidationDepth = errors.New("the value nests too deeply for its schema: checking it applies schemas more than 2,000 levels deep (its nesting times the schema's $ref, allOf, anyOf, ... steps per level)")

// errStopped is a check that its stop ended: the run it was for had ended,
// or its time had run out (it ends at its next poll).
var errStopped = errors.New("the check against the schema was stopped: the run's time ran out")

// validate checks one input. Absent input (nil or empty) is validated as
// JSON null, the same as JSON.stringify(undefined) would give.
func (v *inputValidator) validate(input json.RawMessage) error {
	return v.validateStop(input, nil)
}

// validateStop is validate, stopped once stop says so (see check).
func (v *inputValidator) validateStop(input json.RawMessage, stop func() bool) error {
	ve, inst, err := v.check(input, stop)
	if ve == nil {
		return err
	}
	lines := violationLines(ve, inst, v.doc)
	// A program that sends its input as JSON text (tool_call(name,
	// JSON.stringify(input)), a habit of models) read only "got string".
	if s, ok := inst.(string); ok && len(lines) > 0 && strings.HasPrefix(lines[0], "/: type: ") && isJSONContainer(s) {
		lines[0] += " (the input is JSON text, a string: pass the object itself, not JSON.stringify(...) of it)"
	} else if len(lines) > 0 && strings.HasPrefix(lines[0], "/: type: ") && strings.HasSuffix(lines[0], "want object") {
		lines[0] += bareValueHint(v.doc, inst)
	}
	return &validationError{lines: lines}
}

// validateResult checks one result of the tool named name, as validate an
// input, in the same words but without the hints meant for the model's own
// input: the tool, not the program, is wrong.
func (v *inputValidator) validateResult(name string, out json.RawMessage, stop func() bool) error {
	ve, inst, err := v.check(out, stop)
	switch {
	case ve != nil:
		return &resultError{tool: name, lines: violationLines(ve, inst, nil)}
	case err != nil:
		return fmt.Errorf("%s: the result cannot be checked against its outputSchema: %v", name, err)
	}
	return nil
}

// check validates a JSON value (absent: null) and returns its violations,
// with the value decoded (nil when it is surely valid), or an error that is not a violation: JSON that
// does not decode or that the validator cannot judge (errInvalidInput), a
// schema that does not compile (the compiler's).
//
// stop, if not nil, is asked now and then while the validator works (its
// work grows with the value times the schema, where nothing else checks
// the time: 300,000 items against a pattern held a page's thread 8 s past
// a run's 1 s timeout); once it says so the check ends with errStopped.
func (v *inputValidator) check(raw json.RawMessage, stop func() bool) (*jsonschema.ValidationError, any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		raw = []byte("null")
	}
	// Valid input, the common case, is decoded only as deep as its schema
	// reads it; any other is decoded whole below, for the validator and
	// its lines.
	if stop != nil && stop() {
		return nil, nil, errStopped
	}
	fast := &fastCheck{formatAsserted: v.formatAsserted, stop: stop}
	if v.plain && v.levels >= 0 {
		outline, err := jsondec.Decode(raw, jsondec.Options{Numbers: true, Shared: true, Outline: v.levels + 1})
		if err == nil && fast.valid(v.doc, outline, 0) {
			return nil, nil, nil
		}
	}
	// Each decode of a large value takes long (14 MB: 0.5 s natively) and
	// does not poll: a check whose run is over by now goes no further.
	if stop != nil && stop() {
		return nil, nil, errStopped
	}
	// The values live as long as the check (the lines it returns are
	// strings of their own): its strings can share the text's bytes.
	inst, err := jsondec.Decode(raw, jsondec.Options{Numbers: true, Shared: true})
	if err != nil {
		// encoding/json's own words for what is wrong.
		if inst, err = jsonschema.UnmarshalJSON(bytes.NewReader(raw)); err != nil {
			return nil, nil, fmt.Errorf("%w: not valid JSON: %v", errInvalidInput, err)
		}
	}
	if v.plain && fast.valid(v.doc, inst, 0) {
		return nil, inst, nil
	}
	sch, err := v.compiledStop(stop)
	if err != nil {
		return nil, inst, err
	}
	if stop != nil && stop() {
		return nil, inst, errStopped
	}
	st := &jsonschema.Stop{F: stop, MaxDepth: maxValidationDepth}
	switch err = sch.ValidateStop(inst, st); st.Stopped {
	case "depth":
		return nil, inst, fmt.Errorf("%w: %w", errInvalidInput, errValidationDepth)
	case "asked", "errors":
		return nil, inst, errStopped
	}
	if err == nil {
		return nil, inst, nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return nil, inst, fmt.Errorf("%w: %v", errInvalidInput, err)
	}
	return ve, inst, nil
}
