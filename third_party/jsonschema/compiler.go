package jsonschema

import (
	"errors"
	"fmt"
	"slices"
)

// Compiler compiles json schema into *Schema.
type Compiler struct {
	schemas       map[urlPtr]*Schema
	roots         *roots
	formats       map[string]*Format
	decoders      map[string]*Decoder
	mediaTypes    map[string]*MediaType
	assertFormat  bool
	assertContent bool
	// code-mode patch: a compile that its stop ended, for Compile to go
	// on from (see Compiler.StopWhen), and the part of a schema's keyword
	// queued then, by the keyword's location (objCompiler.enqueueArr).
	pending *pendingCompile
	queued  map[urlPtr]any
}

func (c *Compiler) keepQueued(key urlPtr, part any) {
	if c.queued == nil {
		c.queued = map[urlPtr]any{}
	}
	c.queued[key] = part
}

// pendingCompile is a stopped compile of up: its queue, of which the first
// compiled schemas are made, and the first filled of them known by their
// location (code-mode patch).
type pendingCompile struct {
	up       urlPtr
	q        *queue
	compiled int
	filled   int
}

// NewCompiler create Compiler Object.
func NewCompiler() *Compiler {
	return &Compiler{
		schemas:       map[urlPtr]*Schema{},
		roots:         newRoots(),
		formats:       map[string]*Format{},
		decoders:      map[string]*Decoder{},
		mediaTypes:    map[string]*MediaType{},
		assertFormat:  false,
		assertContent: false,
	}
}

// DefaultDraft overrides the draft used to
// compile schemas without `$schema` field.
//
// By default, this library uses the latest
// draft supported.
//
// The use of this option is HIGHLY encouraged
// to ensure continued correct operation of your
// schema. The current default value will not stay
// the same overtime.
func (c *Compiler) DefaultDraft(d *Draft) {
	c.roots.defaultDraft = d
}

// SkipMetaValidation compiles documents without validating them against
// their meta-schema. The caller must have checked that every document it
// adds is valid against it: the compiler assumes so and may fail or
// misbehave on an invalid one.
//
// code-mode patch: code-mode checks the plain tool schemas it compiles
// itself, because compiling draft 2020-12's meta-schema and validating
// against it is most of the first tool call's cost in the browser.
func (c *Compiler) SkipMetaValidation() {
	c.roots.skipMeta = true
}

// StopWhen makes Compile ask stop now and then (every 1,024 subschemas
// it reads, checks against the meta-schema, compiles or queues) and end
// with ErrStopped once it says so. The work done is kept: Compile of the
// same location goes on from there (with the stop given then), so a
// compile longer than one stop's time ends in a few.
//
// code-mode patch: a tool's schema is compiled at its first call, inside
// a run, and an anyOf of 100,000 alternatives took seconds (more under
// GOOS=js, where nothing else runs meanwhile) past the run's timeout.
func (c *Compiler) StopWhen(stop func() bool) {
	c.roots.stop = stop
}

// ErrStopped is what Compile returns when the function given to StopWhen
// said to stop (code-mode patch).
var ErrStopped = errors.New("jsonschema: compile stopped")

// AssertFormat always enables format assertions.
//
// Default Behavior:
// for draft-07: enabled.
// for draft/2019-09: disabled unless metaschema says `format` vocabulary is required.
// for draft/2020-12: disabled unless metaschema says `format-assertion` vocabulary is required.
func (c *Compiler) AssertFormat() {
	c.assertFormat = true
}

// AssertContent enables content assertions.
//
// Content assertions include keywords:
//   - contentEncoding
//   - contentMediaType
//   - contentSchema
//
// Default behavior is always disabled.
func (c *Compiler) AssertContent() {
	c.assertContent = true
}

// RegisterFormat registers custom format.
//
// NOTE:
//   - "regex" format can not be overridden
//   - format assertions are disabled for draft >= 2019-09
//     see [Compiler.AssertFormat]
func (c *Compiler) RegisterFormat(f *Format) {
	if f.Name != "regex" {
		c.formats[f.Name] = f
	}
}

// RegisterContentEncoding registers custom contentEncoding.
//
// NOTE: content assertions are disabled by default.
// see [Compiler.AssertContent].
func (c *Compiler) RegisterContentEncoding(d *Decoder) {
	c.decoders[d.Name] = d
}

// RegisterContentMediaType registers custom contentMediaType.
//
// NOTE: content assertions are disabled by default.
// see [Compiler.AssertContent].
func (c *Compiler) RegisterContentMediaType(mt *MediaType) {
	c.mediaTypes[mt.Name] = mt
}

// RegisterVocabulary registers custom vocabulary.
//
// NOTE:
//   - vocabularies are disabled for draft >= 2019-09
//     see [Compiler.AssertVocabs]
func (c *Compiler) RegisterVocabulary(vocab *Vocabulary) {
	c.roots.vocabularies[vocab.URL] = vocab
}

// AssertVocabs always enables user-defined vocabularies assertions.
//
// Default Behavior:
// for draft-07: enabled.
// for draft/2019-09: disabled unless metaschema enables a vocabulary.
// for draft/2020-12: disabled unless metaschema enables a vocabulary.
func (c *Compiler) AssertVocabs() {
	c.roots.assertVocabs = true
}

// AddResource adds schema resource which gets used later in reference
// resolution.
//
// The argument url can be file path or url. Any fragment in url is ignored.
// The argument doc must be valid json value.
func (c *Compiler) AddResource(url string, doc any) error {
	uf, err := absolute(url)
	if err != nil {
		return err
	}
	if isMeta(string(uf.url)) {
		return &ResourceExistsError{string(uf.url)}
	}
	if !c.roots.loader.add(uf.url, doc) {
		return &ResourceExistsError{string(uf.url)}
	}
	return nil
}

// UseLoader overrides the default [URLLoader] used
// to load schema resources.
func (c *Compiler) UseLoader(loader URLLoader) {
	c.roots.loader.loader = loader
}

// UseRegexpEngine changes the regexp-engine used.
// By default it uses regexp package from go standard
// library.
//
// NOTE: must be called before compiling any schemas.
func (c *Compiler) UseRegexpEngine(engine RegexpEngine) {
	if engine == nil {
		engine = goRegexpCompile
	}
	c.roots.regexpEngine = engine
}

func (c *Compiler) enqueue(q *queue, up urlPtr) *Schema {
	if sch, ok := c.schemas[up]; ok {
		// already got compiled
		return sch
	}
	if sch := q.get(up); sch != nil {
		return sch
	}
	sch := newSchema(up)
	q.append(sch)
	return sch
}

// MustCompile is like [Compile] but panics if compilation fails.
// It simplifies safe initialization of global variables holding
// compiled schema.
func (c *Compiler) MustCompile(loc string) *Schema {
	sch, err := c.Compile(loc)
	if err != nil {
		panic(fmt.Sprintf("jsonschema: Compile(%q): %v", loc, err))
	}
	return sch
}

// Compile compiles json-schema at given loc.
func (c *Compiler) Compile(loc string) (*Schema, error) {
	uf, err := absolute(loc)
	if err != nil {
		return nil, err
	}
	c.roots.halted = false
	up, err := c.roots.resolveFragment(*uf)
	if err != nil {
		return nil, err
	}
	return c.doCompile(up)
}

func (c *Compiler) doCompile(up urlPtr) (*Schema, error) {
	q := &queue{}
	compiled, filled := 0, 0

	// code-mode patch: a stopped compile goes on; the schema it stopped
	// in (queueing a large anyOf's alternatives) is compiled again, its
	// keywords' queued parts kept.
	if p := c.pending; p != nil && p.up == up {
		q, compiled, filled = p.q, p.compiled, p.filled
		if compiled < q.len() {
			sch := q.at(compiled)
			*sch = *newSchema(sch.up)
		}
	} else {
		c.enqueue(q, up)
	}
	c.pending = nil
	for q.len() > compiled {
		if c.roots.stopped() {
			c.pending = &pendingCompile{up, q, compiled, 0}
			return nil, ErrStopped
		}
		sch := q.at(compiled)
		err := c.roots.ensureSubschema(sch.up)
		if err == nil {
			r := c.roots.roots[sch.up.url]
			var v any
			if v, err = sch.up.lookup(r.doc); err == nil {
				err = c.compileValue(v, sch, r, q)
			}
		}
		if err == nil && c.roots.halted {
			err = ErrStopped
		}
		if err == ErrStopped {
			c.pending = &pendingCompile{up, q, compiled, 0}
		}
		if err != nil {
			return nil, err
		}
		compiled++
	}
	// code-mode patch: stopped here too (100,000 schemas: 0.1 s under
	// GOOS=js), and gone on with.
	for ; filled < len(q.list); filled++ {
		if c.roots.stopped() {
			c.pending = &pendingCompile{up, q, compiled, filled}
			return nil, ErrStopped
		}
		sch := q.list[filled]
		c.schemas[sch.up] = sch
	}
	return c.schemas[up], nil
}

func (c *Compiler) compileValue(v any, sch *Schema, r *root, q *queue) error {
	res := r.resource(sch.up.ptr)
	sch.DraftVersion = res.dialect.draft.version

	base := urlPtr{sch.up.url, res.ptr}
	sch.resource = c.enqueue(q, base)

	// if resource, enqueue dynamic anchors for compilation
	if sch.DraftVersion >= 2020 && sch.up == sch.resource.up {
		res := r.resource(sch.up.ptr)
		for anchor, anchorPtr := range res.anchors {
			if slices.Contains(res.dynamicAnchors, anchor) {
				up := urlPtr{sch.up.url, anchorPtr}
				danchorSch := c.enqueue(q, up)
				if sch.dynamicAnchors == nil {
					sch.dynamicAnchors = map[string]*Schema{}
				}
				sch.dynamicAnchors[string(anchor)] = danchorSch
			}
		}
	}

	switch v := v.(type) {
	case bool:
		sch.Bool = &v
	case map[string]any:
		if err := c.compileObject(v, sch, r, q); err != nil {
			return err
		}
	}

	sch.allPropsEvaluated = sch.AdditionalProperties != nil
	if sch.DraftVersion < 2020 {
		sch.allItemsEvaluated = sch.AdditionalItems != nil
		switch items := sch.Items.(type) {
		case *Schema:
			sch.allItemsEvaluated = true
		case []*Schema:
			sch.numItemsEvaluated = len(items)
		}
	} else {
		sch.allItemsEvaluated = sch.Items2020 != nil
		sch.numItemsEvaluated = len(sch.PrefixItems)
	}

	return nil
}

func (c *Compiler) compileObject(obj map[string]any, sch *Schema, r *root, q *queue) error {
	if len(obj) == 0 {
		b := true
		sch.Bool = &b
		return nil
	}
	oc := objCompiler{
		c:   c,
		obj: obj,
		up:  sch.up,
		r:   r,
		res: r.resource(sch.up.ptr),
		q:   q,
	}
	return oc.compile(sch)
}

// queue --

// queue keeps the schemas of one compile in order, with an index by
// location: get was a linear search, so a schema of n subschemas compiled in
// O(n^2) (an anyOf of 100,000 consts held the page's thread minutes on its
// first check).
type queue struct {
	list []*Schema
	byUp map[urlPtr]*Schema
}

func (q *queue) append(sch *Schema) {
	if q.byUp == nil {
		q.byUp = map[urlPtr]*Schema{}
	}
	q.list = append(q.list, sch)
	if _, ok := q.byUp[sch.up]; !ok {
		q.byUp[sch.up] = sch
	}
}

func (q *queue) at(i int) *Schema {
	return q.list[i]
}

func (q *queue) len() int {
	return len(q.list)
}

func (q *queue) get(up urlPtr) *Schema {
	return q.byUp[up]
}

// regexp --

// Regexp is the representation of compiled regular expression.
type Regexp interface {
	fmt.Stringer

	// MatchString reports whether the string s contains
	// any match of the regular expression.
	MatchString(string) bool
}

// RegexpEngine parses a regular expression and returns,
// if successful, a Regexp object that can be used to
// match against text.
type RegexpEngine func(string) (Regexp, error)

func (re RegexpEngine) validate(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	_, err := re(s)
	return err
}

func goRegexpCompile(s string) (Regexp, error) {
	return CompilePattern(s)
}
