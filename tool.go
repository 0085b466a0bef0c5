package codemode

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/interopio/code-mode/internal/jsondec"
	"github.com/interopio/code-mode/internal/keys"
	"github.com/interopio/code-mode/internal/pagecheck"
	"github.com/interopio/code-mode/internal/search"
	"github.com/interopio/code-mode/internal/tsgen"
)

// Tool is a host function the model's code can call.
type Tool struct {
	// Name is unique, 1..128 characters of [A-Za-z0-9_$.-]. Dots make
	// namespaces: "orders.search" is called as tools.orders.search(input).
	// Registering a name that is not gives a *ToolError wrapping
	// ErrInvalidTool; a name already taken, ErrDuplicateTool.
	Name string
	// Description tells the model what the tool does: search ranks by it,
	// and tool_search and the instruction show it. Optional.
	Description string
	// InputSchema is the JSON Schema (draft 2020-12 unless "$schema" says
	// otherwise) every input is validated against before Execute runs.
	// nil (or JSON null) accepts any input. A schema the validator cannot
	// use is refused at registration (ErrInvalidTool, naming its path); so
	// is a "multipleOf" of more than 18 significant digits (0.01 and 1e-30
	// have one, 5 and 2.5e-9 two), against which checking a value would
	// take time growing with both numbers' digits.
	InputSchema json.RawMessage
	// OutputSchema is the JSON Schema (as InputSchema) of what Execute
	// returns: the model's signature shows it, and every result is
	// validated against it before the sandbox sees it (an absent result as
	// JSON null); a mismatch fails the call. nil accepts any result, and
	// the signature then shows the type of the results seen.
	OutputSchema json.RawMessage
	// Annotations are the host's own metadata (MCP's readOnlyHint, say),
	// handed back in ToolInfo.Annotations; Code Mode never reads them.
	// The map is copied at registration, deeply: the maps, slices and
	// arrays in it too, however nested. Pointers and structs in it are
	// not copied: what they point to stays the host's.
	Annotations map[string]any
	// Source is the value the tool was made from (under GOOS=js, the page's
	// ToolDefinition object), handed back to filters and interceptors in
	// ToolInfo.Source. Code Mode never looks inside it.
	Source any
	// Execute runs the tool; required (nil is refused at registration with
	// ErrInvalidTool). input has already passed InputSchema, and is
	// the call's own (no other call, and no interceptor, holds it). Its
	// result is JSON nesting at most 1,000 levels (the sandbox's JSON.parse
	// limit; invalid or deeper JSON fails the call), or nil (or empty) for
	// undefined. ctx is done when the run making the call ends; an
	// error, or a panic, is thrown in the model's code with its message
	// (an error whose Error method panics, such as a nil *MyError
	// returned as the error, with its type's name). Calls may overlap,
	// each on a goroutine of its own: those of concurrent runs, and one
	// run's (Promise.all). The
	// result is the run's once returned: it is read after Execute returns
	// (as the run takes it in), so it must not be written afterwards (a
	// buffer reused by the next call), unlike Decision.Input, which is
	// copied.
	Execute func(ctx context.Context, input json.RawMessage, call Call) (json.RawMessage, error)
	// Start, optional, is Execute's form that does not block, for a tool
	// that only waits for an answer from elsewhere (a page's tool, under
	// GOOS=js): it starts the tool and returns, and done is called once,
	// from any goroutine (or before Start returns), with what Execute
	// would return. Neither may block. When ctx ends first, the tool
	// should stop and done get context.Cause(ctx). Used, in Execute's
	// place, for calls in runs without OnToolCall: such a call then needs
	// no goroutine of its own. Execute must still be set, and do the same.
	Start func(ctx context.Context, input json.RawMessage, call Call, done func(json.RawMessage, error))
}

// Call is what a tool learns about the run that called it.
type Call struct {
	// Context is the run context: the opaque caller state the host passed
	// to that executeCode run (ExecuteCode's runContext). Tools and
	// interceptors (ToolCall.Context) see it; sandbox code can neither read
	// nor forge it.
	Context any
	// Warn adds a warn log entry to that run, for the model to read: a
	// binding uses it to say that a value the tool returned was converted
	// to fit JSON. Never nil. Once the run has ended (ExecuteCode
	// returned), it does nothing.
	Warn func(message string)
	// CheckResult checks a result against the tool's OutputSchema, as the
	// call does once Execute (or Start) answers; nil for a tool without
	// one. A binding that reports a call's outcome before it hands the
	// result over (the JavaScript binding's tool-result event) checks it
	// with this; a result that passed is then not checked again, so the
	// binding must answer with the very result it checked.
	CheckResult func(result json.RawMessage) error
	// MemoryLimitMB is the run's (Config.MemoryLimitMB): a result whose
	// JSON text has more characters than that many MiB fails the call, as
	// the sandbox could not hold it. A binding that copies a result in
	// from elsewhere (the JavaScript binding's page) refuses such a result
	// before the copy, in the call's words: a WebAssembly memory that took
	// it in never shrinks.
	MemoryLimitMB int
	// Answering is for a binding whose tool has answered but whose result
	// is not yet the call's answer: the JavaScript binding's page converts
	// execute's value to JSON, copies the text in or posts it to a worker,
	// seconds for a value of 100 MB. It reports the result's size, bytes
	// of JSON so far while it converts (final false), or the text's whole
	// length (final true), so that a run that times out meanwhile says the
	// time went there, not to a tool that had not answered. Never nil.
	Answering func(bytes int, final bool)
}

// ToolInfo is the view of a tool handed to ToolFilter, interceptors and
// the caller of ListTools: its Tool's fields as registered (schemas as
// compact copies, nil for none). Its schemas and annotations map are
// copies: what their holder writes into them changes nothing of the
// CodeMode (neither what is enforced nor what the model or another caller
// sees). ListTools and each interceptor call get fresh ones; ToolFilter,
// which runs for every tool on every run, gets the same copies on each
// call, possibly concurrently: treat them as read-only. Annotations are
// copied as deeply as Tool.Annotations are at registration.
type ToolInfo struct {
	Name         string          // Tool.Name
	Description  string          // Tool.Description
	InputSchema  json.RawMessage // Tool.InputSchema, compact; nil for none
	OutputSchema json.RawMessage // Tool.OutputSchema, compact; nil for none
	Annotations  map[string]any  // a copy of Tool.Annotations
	Source       any             // Tool.Source, as given
}

var (
	// ErrInvalidTool reports a tool whose name, Execute or schemas are unusable.
	ErrInvalidTool = errors.New("codemode: invalid tool")
	// ErrDuplicateTool reports a name that is already registered or appears
	// twice in one batch.
	ErrDuplicateTool = errors.New("codemode: duplicate tool")
)

// ToolError is a tool that could not be registered: which one of the
// batch (given to New's Config.Tools, RegisterTools or NewSession) and
// what is wrong with it. Its message is the one without the index
// ("codemode: invalid tool: tool "x": inputSchema: ..."); a binding says
// where the batch came from, with Index ("config.tools[3]").
type ToolError struct {
	// Index is the tool's place in the batch.
	Index int
	// Name is the tool's name as given.
	Name string
	// Field is what is wrong: "name" (its grammar, or a name taken),
	// "Execute", "inputSchema" or "outputSchema".
	Field string
	// Reason says what is wrong with Field, without the tool's name.
	Reason string
	// kind is ErrInvalidTool or ErrDuplicateTool.
	kind error
}

// Error is `codemode: invalid tool: tool "<Name>": <Field>: <Reason>`, or
// for Field "name" `codemode: invalid tool: tool name "<Name>": <Reason>`
// ("duplicate tool" in place of "invalid tool" for ErrDuplicateTool).
func (e *ToolError) Error() string {
	if e.Field == "name" {
		return fmt.Sprintf("%v: tool name %s: %s", e.kind, keys.Quote(e.Name), e.Reason)
	}
	return fmt.Sprintf("%v: tool %s: %s: %s", e.kind, keys.Quote(e.Name), e.Field, e.Reason)
}

// Unwrap gives ErrInvalidTool or ErrDuplicateTool.
func (e *ToolError) Unwrap() error { return e.kind }

func invalidTool(name, field, format string, a ...any) *ToolError {
	return &ToolError{Name: name, Field: field, Reason: fmt.Sprintf(format, a...), kind: ErrInvalidTool}
}

// duplicateTool is the error of the tool at index whose name is taken.
func duplicateTool(index int, name, reason string) *ToolError {
	return &ToolError{Index: index, Name: name, Field: "name", Reason: reason, kind: ErrDuplicateTool}
}

// atIndex sets the index of a *ToolError, the batch's place of the tool.
func atIndex(err error, i int) error {
	var te *ToolError
	if errors.As(err, &te) {
		te.Index = i
	}
	return err
}

const maxToolNameLen = 128

// validateToolName enforces the name grammar. The namespace rules exist
// because the sandbox turns every dot into a property step of `tools`, so an
// empty segment would have nowhere to live.
func validateToolName(name string) error {
	if len(name) < 1 || len(name) > maxToolNameLen {
		return invalidTool(name, "name", "must be 1..%d characters of [A-Za-z0-9_$.-], got %d", maxToolNameLen, len(name))
	}
	for i, r := range name {
		if r >= 0x80 || !isNameByte(byte(r)) {
			return invalidTool(name, "name", "must be 1..%d characters of [A-Za-z0-9_$.-], found %q at offset %d", maxToolNameLen, r, i)
		}
	}
	if strings.HasPrefix(name, ".") || strings.HasSuffix(name, ".") || strings.Contains(name, "..") {
		return invalidTool(name, "name", "namespaces must be non-empty (a dot may not start or end the name, or follow another dot)")
	}
	for _, r := range reservedLastSegments {
		if ns, ok := strings.CutSuffix(name, r.segment); ok && (ns == "" || strings.HasSuffix(ns, ".")) {
			return invalidTool(name, "name", "must not end in %q: "+r.why, r.segment, strings.TrimSuffix("tools."+ns, "."))
		}
	}
	return nil
}

// reservedLastSegments are the names the language calls on an object by
// itself: a tool named so would be called by code that never called it.
var reservedLastSegments = []struct{ segment, why string }{
	// A function named then makes its namespace a thenable: `await
	// tools.x` or `return tools.x` would call tools.x.then with the
	// promise's resolve and reject, a tool call nobody wrote.
	{"then", "await %s would call the tool"},
	// A function named toJSON is what JSON.stringify calls in place of the
	// object that holds it: JSON.stringify(tools) or of the namespace, which
	// a program may write only to look, would call the tool (its side
	// effects, its approval). No symbol stands in for toJSON as
	// Symbol.toPrimitive does for toString and valueOf (prelude/tools.js),
	// so the tool could not both be callable as tools.x.toJSON(input) and
	// not be called by a stringify.
	{"toJSON", "JSON.stringify(%s) would call the tool"},
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == '$' || c == '.' || c == '-'
}

// toolEntry is a registered tool with everything derived from it at
// registration, so that calls and searches never recompile schemas.
type toolEntry struct {
	// tool is the tool as registered, its schemas and annotations copies
	// no caller holds: what is enforced and shown to the model comes
	// from them. info is ToolFilter's view, of its own copies (see view).
	tool Tool
	info ToolInfo
	doc  *search.Doc

	// The inputSchema is compiled on the first call that needs it: most
	// tools of a large catalog are never called, and compiling costs far
	// more than registering (checkInputSchema caught the usual mistakes).
	// One with references or named places is compiled at registration
	// (compileTool), and the first call finds it made.
	validator lazySchema
	// The outputSchema likewise, on the first result to check.
	output lazySchema

	sigOnce sync.Once
	sig     string
	// The words of the name that the namespace summary counts
	// (nameWords), found once: the summary is made again whenever the
	// visible tools change, and most of them have not.
	wordsOnce sync.Once
	words     []search.NameWord

	// removed is set when the tool is unregistered. A run resolves names
	// against the tools visible when it started, so without it a program
	// could go on calling a tool its host had taken away (revoked) until
	// the run ended; in worker mode the page no longer had the tool and
	// said "the run has ended", so the two modes differed as well.
	removed atomic.Bool
}

// signature is the TypeScript declaration of the tool, computed on first use
// because most tools of a large catalog are never looked at.
func (e *toolEntry) signature() string {
	e.sigOnce.Do(func() {
		e.sig = tsgen.Signature(e.info.Name, e.info.Description, e.tool.InputSchema, e.tool.OutputSchema)
	})
	return e.sig
}

// nameWords is what the instructions' namespace summary counts of the
// tool's name (search.NameWords), whose namespace's own words are own;
// none for a tool without a namespace.
func (e *toolEntry) nameWords(own []string) []search.NameWord {
	e.wordsOnce.Do(func() {
		if _, rest, ok := strings.Cut(e.info.Name, "."); ok {
			e.words = search.NameWords(own, rest)
		}
	})
	return e.words
}

// validate checks input against the tool's inputSchema.
func (e *toolEntry) validate(input json.RawMessage) error { return e.validateStop(input, nil) }

// validateStop is validate, stopped once stop says so (inputValidator.check).
func (e *toolEntry) validateStop(input json.RawMessage, stop func() bool) error {
	v, err := e.validator.get(e.tool.InputSchema, stop, e.info.Name, "inputSchema")
	if err != nil || v == nil {
		return err
	}
	return v.validateStop(input, stop)
}

// lazySchema is a tool's schema compiled on first need, or at registration
// (v set, done). A preparation that its run's stop ended keeps the steps it
// made (prep), for the next call to go on from.
type lazySchema struct {
	mu   sync.Mutex
	done bool
	v    *inputValidator // nil: any value is accepted
	err  error
	prep *inputValidator // being prepared
}

// get is the validator of raw (nil for none), the schema of tool name's
// field, prepared now if not yet (inputValidator.prepare).
func (l *lazySchema) get(raw json.RawMessage, stop func() bool, name, field string) (*inputValidator, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.done || raw == nil {
		return l.v, l.err
	}
	if l.prep == nil {
		l.prep = &inputValidator{}
	}
	err := l.prep.prepare(raw, stop)
	if errors.Is(err, errStopped) {
		return nil, err
	}
	l.done = true
	if l.v, l.prep = l.prep, nil; err != nil {
		l.v, l.err = nil, fmt.Errorf("%w: tool %q: %s: %v", ErrInvalidTool, name, field, err)
	}
	return l.v, l.err
}

// preparing says whether the schema is being prepared or compiled, or
// waits for the next call to go on with a stopped preparation or compile
// (for a TIMEOUT meanwhile to say so: awaitedHint). get holds l.mu while
// preparing, compiledStop v.mu while compiling.
func (l *lazySchema) preparing() bool {
	if !l.mu.TryLock() {
		return true
	}
	v := l.v
	busy := l.prep != nil
	l.mu.Unlock()
	if busy || v == nil {
		return busy
	}
	if !v.mu.TryLock() {
		return true
	}
	busy = v.comp != nil
	v.mu.Unlock()
	return busy
}

// checkResult checks a result of the tool (nil: none) against its
// outputSchema: the model's code is written to the signature, which shows
// that schema, so a result it says cannot happen must not reach it.
func (e *toolEntry) checkResult(out json.RawMessage) error { return e.checkResultStop(out, nil) }

// checkResultStop is checkResult, stopped once stop says so (inputValidator.check).
func (e *toolEntry) checkResultStop(out json.RawMessage, stop func() bool) error {
	if e.tool.OutputSchema == nil {
		return nil
	}
	v, err := e.output.get(e.tool.OutputSchema, stop, e.info.Name, "outputSchema")
	if err != nil {
		return err
	}
	return v.validateResult(e.info.Name, out, stop)
}

// compileTool checks one tool and derives its entry. Schemas and annotations
// are copied so a caller mutating its own slices or maps later cannot change
// what was validated.
func compileTool(t Tool) (*toolEntry, error) { return new(schemaMemo).compileTool(t) }

// schemaMemo is a registration's schemas by their text, each read and
// checked once: a catalog repeats them (631 texts for make bench's 1,000
// tools), and decoding and checking a schema was a third of registering its
// tool. Its decoded values are only read. A nil map keeps nothing.
type schemaMemo struct {
	schemas map[string]*memoSchema
	reader  search.SchemaReader
}

// memoSchema is one schema text's normalizeSchema and its checks' verdict.
type memoSchema struct {
	raw  json.RawMessage
	text search.SchemaText
	// root is the decoded schema, decoded when first needed (value): a
	// schema the worker's page walked, with no reference nor named place,
	// is not decoded at registration at all.
	root    any
	err     error
	checked bool
	bad     error
}

// schema returns raw's entry; raw is a private copy for the caller.
func (m *schemaMemo) schema(raw json.RawMessage) (json.RawMessage, *memoSchema) {
	if s, ok := m.schemas[string(raw)]; ok {
		return bytes.Clone(s.raw), s
	}
	s := &memoSchema{}
	s.raw, s.text, s.err = normalizeSchema(raw, &m.reader)
	if m.schemas != nil {
		m.schemas[string(raw)] = s
	}
	return s.raw, s
}

// value is the decoded schema (nil for none).
func (s *memoSchema) value() any {
	if s.root == nil && s.raw != nil {
		s.root, _ = jsondec.Decode(s.raw, jsondec.Options{}) // normalizeSchema read it whole
	}
	return s.root
}

// check is the registration-time check of a schema both enforced (an input
// or an output schema): a schema the validator would refuse, or read in
// another draft's sense, is refused now, naming its path, rather than
// failing every call (or every result) of the tool later. walked: the
// worker's page has made the walk (internal/pagecheck); the page's verdict
// depends on the text alone, so it is kept for the text as the walk's is.
func (s *memoSchema) check(walked bool) error {
	if !s.checked {
		s.checked = true
		if !walked {
			// As the validator will read it (readAsMeant).
			s.bad = checkInputSchema(readAsMeant(s.raw, s.value()))
		}
		if s.bad == nil {
			s.bad = checkMultipleOfDigits(s.raw)
		}
	}
	return s.bad
}

func (m *schemaMemo) compileTool(t Tool) (*toolEntry, error) {
	if err := validateToolName(t.Name); err != nil {
		return nil, err
	}
	if t.Execute == nil {
		return nil, invalidTool(t.Name, "Execute", "must not be nil")
	}
	in, inSchema := m.schema(t.InputSchema)
	if inSchema.err != nil {
		return nil, invalidTool(t.Name, "inputSchema", "%v", inSchema.err)
	}
	out, outSchema := m.schema(t.OutputSchema)
	if outSchema.err != nil {
		return nil, invalidTool(t.Name, "outputSchema", "%v", outSchema.err)
	}
	walked := pagecheck.Checked(t.Source)
	var texts [2]*search.SchemaText // the input's and the output's
	for k, sc := range []struct {
		field  string
		schema *memoSchema
	}{{"inputSchema", inSchema}, {"outputSchema", outSchema}} {
		if sc.schema.raw == nil {
			continue
		}
		if err := sc.schema.check(walked); err != nil {
			return nil, invalidTool(t.Name, sc.field, "%v", err)
		}
		texts[k] = &sc.schema.text
	}
	// Only references can make a schema refer to itself without end, which
	// only the compiler sees: such schemas compile now, at registration. So
	// do schemas that name places ($id, $anchor): an id the compiler cannot
	// parse, or one named twice, would fail every call (or every result).
	var eager, eagerOut *inputValidator
	var err error
	if compilesEagerly(in, inSchema.value) {
		if eager, err = compileSchema(in); err != nil {
			return nil, invalidTool(t.Name, "inputSchema", "%v", err)
		}
	}
	if compilesEagerly(out, outSchema.value) {
		if eagerOut, err = compileSchema(out); err != nil {
			return nil, invalidTool(t.Name, "outputSchema", "%v", err)
		}
	}
	t.InputSchema, t.OutputSchema = in, out
	t.Annotations = cloneAnnotations(t.Annotations)
	e := &toolEntry{tool: t}
	// ToolFilter is called for every tool on every run, search and
	// instruction: a copy per call cost 0.9 ms a run for 1,000 tools. It
	// gets copies of its own, made once; what it writes into them reaches
	// only its own later calls.
	e.info = e.view()
	e.validator.v, e.validator.done = eager, eager != nil
	e.output.v, e.output.done = eagerOut, eagerOut != nil
	e.doc = search.NewDocFromText(e.info.Name, e.info.Description, texts[0], texts[1])
	return e, nil
}

// view is the tool as a caller sees it (ListTools, an interceptor): its
// schemas and annotations are copies, so that what the caller writes into
// them reaches neither the model, nor what is enforced, nor another caller.
func (e *toolEntry) view() ToolInfo {
	t := &e.tool
	return ToolInfo{
		Name:         t.Name,
		Description:  t.Description,
		InputSchema:  bytes.Clone(t.InputSchema),
		OutputSchema: bytes.Clone(t.OutputSchema),
		Annotations:  cloneAnnotations(t.Annotations),
		Source:       t.Source,
	}
}

// normalizeSchema returns a private copy of a schema and what the search
// index reads of it (with reader), nil for absent or JSON null, and an
// error for anything that is not a JSON object or boolean. The schema is
// read once, here, for every use at registration; it is decoded only for
// those that need its value (memoSchema.value).
func normalizeSchema(raw json.RawMessage, reader *search.SchemaReader) (json.RawMessage, search.SchemaText, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return nil, search.SchemaText{}, nil
	}
	if schemaTooLong(trimmed) {
		return nil, search.SchemaText{}, errors.New(schemaTooLarge)
	}
	// The copy is read: the index's texts may be views of it.
	own := bytes.Clone(trimmed)
	text, err := reader.Read(own, isSchemaKeyword)
	if err != nil {
		return nil, search.SchemaText{}, schemaJSONError(trimmed)
	}
	switch trimmed[0] {
	case '{':
		if text.Keyed && !text.Keyword {
			return nil, search.SchemaText{}, notSchemaError(own)
		}
	case 't', 'f':
	default:
		return nil, search.SchemaText{}, fmt.Errorf("must be a JSON Schema object or boolean, got %s", jsonKind(trimmed[0]))
	}
	return own, text, nil
}

// maxSchemaChars is the longest a schema's JSON text may be, in
// characters (UTF-16 units, as a page measures the text JSON.stringify
// made of its schema: web/src/schema.mjs MAX_SCHEMA_CHARS, which a test
// holds to this one), without the spaces between its tokens. A page's
// schema that holds one object in several places is written out at each,
// and 30 levels of nesting one object twice froze the page for good while
// it was written; the largest schema of a real API we found is 238,346
// characters (web/USAGE.md "Input schemas").
const maxSchemaChars = 8_000_000

// schemaTooLarge is what a schema longer than maxSchemaChars is told, the
// page's words (web/src/schema.mjs TOO_LARGE).
const schemaTooLarge = `its JSON text is longer than the 8,000,000 characters a schema may have; an object the schema holds in several places is written out at each ` +
	`(nesting one object twice per level doubles the text with each level): put such a part under "$defs" and refer to it with "$ref"`

// schemaTooLong reports whether text, a JSON value, is longer than
// maxSchemaChars without its spaces. A text of no more bytes is not: no
// UTF-16 unit takes less than a byte.
func schemaTooLong(text []byte) bool {
	if len(text) <= maxSchemaChars {
		return false
	}
	var compact bytes.Buffer
	if json.Compact(&compact, text) != nil {
		return false // not JSON: normalizeSchema says so in its own words
	}
	n := 0
	for _, b := range compact.Bytes() {
		if b&0xc0 != 0x80 { // the first byte of a character
			n++
		}
		if b >= 0xf0 { // ... of one outside the BMP: a surrogate pair
			n++
		}
	}
	return n > maxSchemaChars
}

// schemaKeywords are the JSON Schema keywords (2020-12, draft-07 and the
// OpenAPI nullable) that make an object recognisably a schema.
var schemaKeywords = map[string]bool{
	"type": true, "properties": true, "items": true, "prefixItems": true, "required": true,
	"additionalProperties": true, "patternProperties": true, "propertyNames": true, "enum": true, "const": true,
	"anyOf": true, "oneOf": true, "allOf": true, "not": true, "if": true, "then": true, "else": true,
	"$ref": true, "$defs": true, "definitions": true, "$schema": true, "$id": true, "$anchor": true,
	"$dynamicRef": true, "$dynamicAnchor": true, "$comment": true, "title": true, "description": true,
	"default": true, "examples": true, "format": true, "minimum": true, "maximum": true,
	"exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true, "minLength": true,
	"maxLength": true, "pattern": true, "minItems": true, "maxItems": true, "uniqueItems": true,
	"contains": true, "minContains": true, "maxContains": true, "minProperties": true, "maxProperties": true,
	"dependentRequired": true, "dependentSchemas": true, "dependencies": true, "unevaluatedProperties": true,
	"unevaluatedItems": true, "nullable": true, "deprecated": true, "readOnly": true, "writeOnly": true,
	"contentMediaType": true, "contentEncoding": true, "contentSchema": true, "additionalItems": true,
}

func isSchemaKeyword(k string) bool { return schemaKeywords[k] }

// notSchemaError is the error for a non-empty object none of whose keys is
// a JSON Schema keyword: {"status": "string"} is a TypeScript-like shape,
// which a validator would accept as a schema that allows anything.
func notSchemaError(text []byte) error {
	v, _ := jsondec.Decode(text, jsondec.Options{})
	m, _ := v.(map[string]any)
	keys := slices.Sorted(maps.Keys(m))
	if len(keys) > 5 {
		keys = append(keys[:5], "...")
	}
	return fmt.Errorf("must be a JSON Schema, but none of its keys (%s) is a JSON Schema keyword such as type or properties; "+
		`for an object with those properties write {"type": "object", "properties": {...}}`, strings.Join(keys, ", "))
}

func jsonKind(first byte) string {
	switch first {
	case '[':
		return "array"
	case '"':
		return "string"
	default:
		return "number"
	}
}

// registry holds the tools of a factory (or of one session). It is safe for
// concurrent use; entries are immutable once added, but for removed.
type registry struct {
	mu    sync.RWMutex
	tools map[string]*toolEntry
	// byName holds tools in name order but for added, the tools
	// registered since (unsorted); nil when a removal made it stale. It is
	// snapshot()'s answer when added is empty, shared (never changed in
	// place: order makes a new slice). A
	// registration sorts its own tools into it once they are many enough
	// (mergeAt), so that the first snapshot after a large catalog
	// registered in parts (a page's slices of 512) sorts a part, not
	// 100,000 names (a tenth of a second of the page's thread, under
	// WebAssembly, at its first search).
	byName, added []*toolEntry
	// ns is the running summary of the tools' namespaces (nil until
	// asked for or nsTallyAt tools).
	ns *nsTallies
	// index is the search's postings of the tools' docs: a search
	// merges the terms of the tools that share one with the request.
	index *search.Index
}

func newRegistry() *registry {
	return &registry{tools: map[string]*toolEntry{}, byName: []*toolEntry{}, index: search.NewIndex()}
}

// mergeAt says whether the tools registered since byName was last sorted
// are to be sorted into it now: at least 1,024 of them, and an eighth of
// byName (each tool is then moved some eight times in all, however the
// catalog grows).
func mergeAt(sorted, added int) bool { return added >= 1024 && added >= sorted/8 }

// order sorts added into byName; r.mu held.
func (r *registry) order() {
	sort.Slice(r.added, func(i, j int) bool { return r.added[i].info.Name < r.added[j].info.Name })
	r.byName = mergeByName(r.byName, r.added)
	r.added = nil
}

// add registers a batch of tools, all or nothing. The returned function
// removes exactly the entries this call added (not a later tool that reused
// a name) and is safe to call more than once.
func (r *registry) add(tools ...Tool) (remove func(), err error) {
	entries := make([]*toolEntry, 0, len(tools))
	seen := make(map[string]bool, len(tools))
	memo := schemaMemo{schemas: map[string]*memoSchema{}}
	search.Reserve(len(tools))
	for i, t := range tools {
		if err := validateToolName(t.Name); err != nil {
			return nil, atIndex(err, i)
		}
		if seen[t.Name] {
			return nil, duplicateTool(i, t.Name, "appears more than once in the batch")
		}
		seen[t.Name] = true
		e, err := memo.compileTool(t)
		if err != nil {
			return nil, atIndex(err, i)
		}
		entries = append(entries, e)
	}

	r.mu.Lock()
	defer r.mu.Unlock()
	for i, e := range entries {
		if _, ok := r.tools[e.info.Name]; ok {
			return nil, duplicateTool(i, e.info.Name, "already registered")
		}
	}
	docs := make([]*search.Doc, len(entries))
	for i, e := range entries {
		r.tools[e.info.Name] = e
		docs[i] = e.doc
	}
	// Before any snapshot holds them: a search finds a tool it
	// sees in the postings.
	r.index.Add(docs...)
	switch {
	case r.ns != nil:
		for _, e := range entries {
			r.ns.count(e, 1)
		}
	case len(r.tools) >= nsTallyAt:
		r.tally()
	}
	if r.byName != nil {
		r.added = append(r.added, entries...)
		if mergeAt(len(r.byName), len(r.added)) {
			r.order()
		}
	}

	var once sync.Once
	return func() {
		once.Do(func() {
			r.mu.Lock()
			defer r.mu.Unlock()
			docs := make([]*search.Doc, len(entries))
			for i, e := range entries {
				docs[i] = e.doc
				e.removed.Store(true)
				if r.tools[e.info.Name] == e {
					delete(r.tools, e.info.Name)
					if r.ns != nil {
						r.ns.count(e, -1)
					}
				}
			}
			r.index.Remove(docs...)
			r.byName, r.added = nil, nil
		})
	}, nil
}

// snapshot returns the registered tools sorted by name. The slice is shared
// between callers until the next change, so it must not be modified.
func (r *registry) snapshot() []*toolEntry {
	r.mu.RLock()
	s, fresh := r.byName, r.byName != nil && len(r.added) == 0
	r.mu.RUnlock()
	if fresh {
		return s
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.byName == nil {
		r.byName, r.added = []*toolEntry{}, make([]*toolEntry, 0, len(r.tools))
		for _, e := range r.tools {
			r.added = append(r.added, e)
		}
	}
	if len(r.added) > 0 {
		r.order()
	}
	return r.byName
}

// lookup finds a tool by its exact name.
func (r *registry) lookup(name string) (*toolEntry, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	e, ok := r.tools[name]
	return e, ok
}
