package codemode

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/interopio/code-mode/internal/search"
	"github.com/interopio/code-mode/internal/tsgen"
)

// Session is one conversation's view of a CodeMode: the factory's tools plus
// its own. Its runs may overlap; each keeps its own context, limits, logs
// and tool-call record. Close it when the conversation ends: a session
// dropped unclosed keeps its own tools' names taken (and, with
// SearchConfig.Embed, their vectors) for the CodeMode's life.
type Session struct {
	cm     *CodeMode
	own    *registry
	closed atomic.Bool
	shapes resultShapes
	ns     nsMemo
	// done is cancelled by Close: the session's runs in flight stop.
	done  context.Context
	close context.CancelFunc
	// waiting counts the session's runs waiting for a sandbox instance:
	// a run's timeout names these, and no other session's.
	waiting atomic.Int32
}

// SystemInstruction returns the instructions for the model, after
// OverwriteSystemInstruction. It is built on each call from the tools
// visible then. It is "" for a Session not made by NewSession.
//
// After Close (of the session or its CodeMode) it still gives them, as
// LLMTools still gives the tools: a host that hands both to the model
// then hears of the close from the tools' Execute (ErrClosed), where an
// empty text would leave the model without instructions and no one told.
func (s *Session) SystemInstruction() string {
	if s == nil || s.cm == nil {
		return ""
	}
	text := buildInstructionsWith(s.cm.visible(s.own), s.cm.cfg.limits(), s.signature, &s.ns)
	if f := s.cm.cfg.OverwriteSystemInstruction; f != nil {
		text = s.cm.overwriteInstruction(f, text)
	}
	return text
}

// overwriteInstruction applies OverwriteSystemInstruction. One that panics
// leaves the built-in instruction, as a hook that throws does in the
// JavaScript binding (the model is never left without instructions), and
// its first panic is reported: it unwound out of SystemInstruction into
// the host's request handler.
func (c *CodeMode) overwriteInstruction(f func(string) string, text string) (out string) {
	defer func() {
		if p := recover(); p != nil {
			out = text
			if !c.overwritePanicked.Swap(true) {
				reportf("codemode: Config.OverwriteSystemInstruction panicked; SystemInstruction gives the built-in instruction (reported once): %v\n", p)
			}
		}
	}()
	return f(text)
}

// SearchTools finds visible tools for a query, best first. limit <= 0 means
// the default (10); a larger one than 50 gives 50. It fails only once the session or its
// CodeMode is closed (ErrClosed). It is Search with context.Background():
// with SearchConfig.Embed it may wait up to SearchConfig.Timeout for the
// vectors; Search takes a ctx to bound that wait.
func (s *Session) SearchTools(query string, limit int) ([]SearchHit, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	return s.Search(context.Background(), SearchRequest{Query: query, Limit: limit})
}

// SearchHit is one result of a tool search, best first.
type SearchHit struct {
	// Name is the tool's name, as the program calls it (tools.<Name>).
	Name string
	// Namespace is the name up to its last dot ("" for a top-level tool).
	Namespace string
	// Description is the tool's, cut to at most 8 KiB at a word.
	Description string
	// Signature is the tool's TypeScript declaration, from its schemas.
	Signature string
	// Score ranks the hits of one search, higher first; it compares with
	// nothing outside that search.
	Score float64
}

// searchTools ranks entries for a query lexically (see search.Rank).
func searchTools(entries []*toolEntry, query string, limit int) []SearchHit {
	return searchToolsWith(entries, query, limit, (*toolEntry).signature)
}

// searchToolsWith is searchTools with a session's signatures.
func searchToolsWith(entries []*toolEntry, query string, limit int, sig func(*toolEntry) string) []SearchHit {
	return hitsOf(entries, search.Rank(docsOf(entries), query, limit), sig)
}

// docsOf is the search index's view of entries, in their order.
func docsOf(entries []*toolEntry) []*search.Doc {
	docs := make([]*search.Doc, len(entries))
	for i, e := range entries {
		docs[i] = e.doc
	}
	return docs
}

// hitsOf turns ranked positions in entries into search hits.
func hitsOf(entries []*toolEntry, ranked []search.Hit, sig func(*toolEntry) string) []SearchHit {
	hits := make([]SearchHit, len(ranked))
	for i, h := range ranked {
		e := entries[h.Index]
		hits[i] = SearchHit{Name: e.info.Name, Namespace: e.doc.Namespace(), Description: tsgen.Description(e.info.Description), Signature: sig(e), Score: h.Score}
	}
	return hits
}

// ExecuteCodeInput is the input of the executeCode tool.
type ExecuteCodeInput struct {
	// Code is the program: JavaScript or TypeScript, the body of an async
	// function (see the package's README for what else is accepted).
	Code string `json:"code"`
	// Explanation is the model's sentence on what the code does, for the
	// host to log or show; the run does not read it.
	Explanation string `json:"explanation"`
}

// SearchToolsInput is the input of the searchTools tool, as JSON: its
// fields mean what SearchRequest's do (all optional; Limit 0 is the
// default, 10).
type SearchToolsInput struct {
	Query     string `json:"query"`               // SearchRequest.Query
	Namespace string `json:"namespace,omitempty"` // SearchRequest.Namespace
	Limit     int    `json:"limit,omitempty"`     // SearchRequest.Limit
}

// LLMTool is a tool to hand to an LLM SDK: its arguments and result are
// JSON. runContext is the run context of this call (see ExecuteCode).
// Arguments the model got wrong give a result with ErrorCodeInvalidInput
// for it to read, not an error: Execute fails only as ExecuteCode and
// Search do (ctx done, ErrClosed).
type LLMTool struct {
	// Name is "searchTools" or "executeCode".
	Name string
	// Description tells the model what the tool does (executeCode's
	// states the contract and the limits; the catalog is in
	// SystemInstruction).
	Description string
	// InputSchema is the JSON Schema of the arguments.
	InputSchema json.RawMessage
	// Execute runs the tool on the model's arguments (a JSON object, or a
	// JSON string holding one; a lone string is the code or the query)
	// and returns the result for the model.
	Execute func(ctx context.Context, args json.RawMessage, runContext any) (json.RawMessage, error)
}

// The LLM tools' input schemas, matching their argSpecs
// (TestLLMToolSchemasMatchArguments): searchTools requires nothing, since
// {} lists tools by name and {namespace} a namespace's. What they say of
// {} and the limit is what a search gives (TestSearchToolsSchemaSaysWhatEmptyLists).
var (
	executeCodeSchema = json.RawMessage(`{"type":"object","properties":{"code":{"type":"string","description":"JavaScript: the body of an async function. Use await and return the result."},"explanation":{"type":"string","description":"One sentence on what the code does and why."}},"required":["code","explanation"],"additionalProperties":false}`)
	searchToolsSchema = json.RawMessage(`{"type":"object","properties":{"query":{"type":"string","description":"What you want to do, in a few words; empty lists tools by name."},"namespace":{"type":"string","description":"Only tools of this namespace; with an empty query, lists it."},"limit":{"type":"integer","minimum":1,"maximum":50,"description":"How many tools to return (default 10, or 50 listing a namespace)."}},"additionalProperties":false}`)
)

// LLMTools returns [searchTools, executeCode] (nil for a Session not made
// by NewSession). Their Execute fails as ExecuteCode and Search do, with
// ErrClosed once the session or its CodeMode is closed, whatever the
// arguments. After Close LLMTools still returns them (see
// SystemInstruction).
func (s *Session) LLMTools() []LLMTool {
	if s == nil || s.cm == nil {
		return nil
	}
	return []LLMTool{
		{
			Name:        "searchTools",
			Description: "Search the available tools (the API your code can call). Returns names, namespaces, descriptions and TypeScript signatures, best match first; an empty list means no tool matches well: try other words, or list a namespace.",
			InputSchema: bytes.Clone(searchToolsSchema),
			Execute: func(ctx context.Context, args json.RawMessage, _ any) (json.RawMessage, error) {
				// Closed first, as ExecuteCode: arguments the model got
				// wrong would otherwise hide the close behind a result.
				if err := s.checkCtx(ctx); err != nil {
					return nil, err
				}
				in, err := searchToolsArgs.parse(args)
				if err != nil {
					return marshalResult(invalidInputResult(err))
				}
				query, _ := in["query"].(string)
				namespace, _ := in["namespace"].(string)
				limit, _ := in["limit"].(int)
				hits, visible, err := s.searchVisible(ctx, SearchRequest{Query: query, Namespace: namespace, Limit: limit})
				if err != nil {
					return nil, err
				}
				if len(hits) == 0 && noNamespace(visible, namespace) {
					return marshalResult(invalidInputResult(unknownNamespaceError(visible, namespace)))
				}
				if err := unmatchedQuery("searchTools", in); len(hits) == 0 && err != nil {
					return marshalResult(invalidInputResult(err))
				}
				return searchAnswer(hits, searchAnswerChars, visible), nil
			},
		},
		{
			Name:        "executeCode",
			Description: executeCodeDescription(s.cm.cfg.limits()),
			InputSchema: bytes.Clone(executeCodeSchema),
			Execute: func(ctx context.Context, args json.RawMessage, runContext any) (json.RawMessage, error) {
				// Closed first, as ExecuteCode: arguments the model got
				// wrong would otherwise hide the close behind a result.
				if err := s.checkCtx(ctx); err != nil {
					return nil, err
				}
				in, err := executeCodeArgs.parse(args)
				if err != nil {
					return marshalResult(invalidInputResult(err))
				}
				code, _ := in["code"].(string)
				explanation, _ := in["explanation"].(string)
				res, err := s.ExecuteCode(ctx, ExecuteCodeInput{Code: code, Explanation: explanation}, runContext)
				if err != nil {
					return nil, err
				}
				return marshalResult(res)
			},
		},
	}
}

// Close ends the session: its runs in flight stop (ExecuteCode returns
// ErrClosed, their tools' contexts are done, and none of their interceptors
// or tools starts afterwards), and later runs fail with ErrClosed. Its own
// tools' names are free again. Closing again, or closing a nil Session,
// does nothing. Close does not wait for the runs' tools: one that ignores
// its ctx may still be running after Close and its run's ExecuteCode have
// returned. The error is always nil (Close is an io.Closer).
func (s *Session) Close() error {
	if s == nil || s.cm == nil || s.closed.Swap(true) {
		return nil
	}
	s.close()
	// Its tools' names are free for the factory again: read under names,
	// where AddTools adds them.
	c := s.cm
	c.names.Lock()
	own := s.own.snapshot()
	for _, e := range own {
		if c.sessionNames[e.info.Name]--; c.sessionNames[e.info.Name] <= 0 {
			delete(c.sessionNames, e.info.Name)
		}
	}
	c.names.Unlock()
	c.emb.release(own)
	return nil
}

func (s *Session) check() error {
	if s == nil || s.cm == nil {
		return fmt.Errorf("%w: a zero or nil Session is not usable: make one with CodeMode.NewSession", ErrClosed)
	}
	if s.closed.Load() || s.cm.closed.Load() {
		return ErrClosed
	}
	return nil
}

// errNilContext is what a method given a nil ctx returns (after ErrClosed),
// as net/http's NewRequestWithContext does: a run or search derived its
// own contexts from it and panicked in the caller's goroutine.
var errNilContext = errors.New("codemode: nil ctx: pass context.Background() for none")

// checkCtx is check, then ctx's: for the methods that take one.
func (s *Session) checkCtx(ctx context.Context) error {
	if err := s.check(); err != nil {
		return err
	}
	if ctx == nil {
		return errNilContext
	}
	return nil
}
