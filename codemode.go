// Package codemode lets an LLM work by writing JavaScript instead of making
// one JSON tool call at a time.
//
// A CodeMode holds the host's tools and policies (filter, interceptor,
// limits) and a sandbox engine. Its sessions give the model two tools:
// searchTools, to find the tools it needs, and executeCode, to run a program
// that calls them. Every call from the program is resolved against the
// visible tools, passes the interceptor, is validated against the tool's
// input schema, and only then runs.
//
// This package is pure Go: it runs natively on wazero, and package wasm
// exposes it to JavaScript under GOOS=js.
package codemode

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/interopio/code-mode/sandbox"
)

// ErrClosed is returned by every method that returns an error after Close
// (of the CodeMode, or of the Session). A CodeMode or Session that was not
// made by New or NewSession (a zero value, a nil pointer) gives an error
// wrapping it too, rather than panicking.
var ErrClosed = errors.New("codemode: closed")

// ErrAsset is wrapped by New's error for bytes that are not the QuickJS
// asset this module expects. It is sandbox.ErrAsset.
var ErrAsset = sandbox.ErrAsset

// ErrNilEngine is wrapped by NewWithEngine's error for a nil engine, or
// one that sandbox.NewEngine did not make (a zero sandbox.Engine).
var ErrNilEngine = errors.New("codemode: nil engine")

// The errors of a CodeMode or Session used without New or NewSession are
// made where they happen, not at package init: formatting them there
// brought fmt's printer into every page's start-up (TestCoreInitFormatsNothing).

// CodeMode is a configured factory of sessions, made by New. It is safe
// for concurrent use. Its Config is copied by New: changing the caller's
// Config (or its Tools slice) afterwards changes nothing.
type CodeMode struct {
	cfg    Config
	reg    *registry
	engine *sandbox.Engine
	emb    *embedder // nil: lexical search only
	closed atomic.Bool
	// done is cancelled by Close: every run in flight stops.
	done  context.Context
	close context.CancelFunc

	// names guards the rule that a name is a factory tool's or a live
	// session's own, never both: NewSession checks the factory's tools and
	// RegisterTools the sessions' (sessionNames counts the live sessions
	// holding each name), each under names, so neither can slip past the
	// other. A factory tool registered over a session's own made the
	// session's program fail as it built `tools` ("property is not
	// configurable") and tool_call reach the factory's tool instead.
	names        sync.Mutex
	sessionNames map[string]int

	// overwritePanicked: OverwriteSystemInstruction's first panic was
	// reported (overwriteInstruction).
	overwritePanicked atomic.Bool

	// zone answers the sandbox's local time zone (Config.TimeZone); nil
	// for UTC.
	zone *localZone
}

// New compiles the QuickJS asset and returns a CodeMode. asset is the file
// dist/emscripten-module.wasm of the npm package
// @jitl/quickjs-wasmfile-release-sync@0.32.0 (in this repository,
// sandboxtest.AssetPath after npm ci): embed it with go:embed, or read it
// at start. Bytes that are not that asset (empty, not WebAssembly,
// truncated, another build) give an error wrapping ErrAsset; a bad Config,
// errors wrapping ErrInvalidConfig (each a *ConfigError); a bad
// Config.Tools, errors wrapping ErrInvalidTool or ErrDuplicateTool.
// Natively the sandbox runs on wazero. Compiling takes a while: make one
// CodeMode and share it (it is safe for concurrent use).
//
// At most 16 runs execute at once per CodeMode, each on a sandbox instance
// of its own (up to 16 MiB plus twice MemoryLimitMB of memory each). A 17th
// ExecuteCode waits until a run ends and frees an instance, bounded only by
// its ctx: Config.Timeout starts when the run gets its instance, so it
// covers the run itself (tool calls awaited included), not that wait. Give
// ctx a deadline to bound the whole call: one that ends during the wait
// gives an error wrapping ErrNotStarted (and matching ctx.Err()).
func New(asset []byte, cfg Config) (*CodeMode, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	engine, err := sandbox.NewEngine(asset, sandbox.Config{MemoryLimit: int64(cfg.MemoryLimitMB) << 20})
	if err != nil {
		return nil, err
	}
	return newCodeMode(engine, cfg)
}

// NewWithEngine returns a CodeMode on an engine the caller built (under
// GOOS=js, on the host's WebAssembly). It takes ownership of engine: the
// CodeMode's Close closes it, and so does NewWithEngine when it fails.
// cfg.MemoryLimitMB is the engine's memory limit (sandbox.Config's
// MemoryLimit, in whole MiB), or 0 to take it from the engine: another
// value is a *ConfigError, as the model would be told a limit the sandbox
// does not enforce. A nil engine, or one that sandbox.NewEngine did not
// make, gives an error wrapping ErrNilEngine.
func NewWithEngine(engine *sandbox.Engine, cfg Config) (*CodeMode, error) {
	limit := engine.MemoryLimit()
	if limit == 0 {
		return nil, fmt.Errorf("%w: NewWithEngine's engine must not be nil or a zero sandbox.Engine (sandbox.NewEngine makes one)", ErrNilEngine)
	}
	given := cfg.MemoryLimitMB
	if given == 0 {
		cfg.MemoryLimitMB = max(int(limit>>20), 1)
	}
	cfg, err := cfg.withDefaults()
	if err == nil && given != 0 && int64(given)<<20 != limit {
		err = &ConfigError{Field: "MemoryLimitMB", Problem: fmt.Sprintf(
			"must be the engine's memory limit, %s (sandbox.Config.MemoryLimit), or 0 to take it from the engine; got %d", mib(limit), given)}
	}
	if err != nil {
		engine.Close()
		return nil, err
	}
	return newCodeMode(engine, cfg)
}

// mib writes a byte count in MiB, exactly.
func mib(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// ValidateConfig reports what is wrong with cfg, if anything, without
// creating anything. It fails exactly when New would fail on cfg, with the
// same error: wrapping ErrInvalidConfig (a *ConfigError) for a field, or
// ErrInvalidTool or ErrDuplicateTool (a *ToolError) for one of its Tools.
func ValidateConfig(cfg Config) error {
	if _, err := cfg.withDefaults(); err != nil {
		return err
	}
	// Config.Tools too, as New registers them: into a registry of its own.
	if len(cfg.Tools) > 0 {
		if _, err := newRegistry().add(cfg.Tools...); err != nil {
			return toolsError(err)
		}
	}
	return nil
}

// toolsError is the error of Config.Tools that New and ValidateConfig give.
// It names the tool's index: Tools[3]: codemode: invalid tool: ...
func toolsError(err error) error {
	var te *ToolError
	if errors.As(err, &te) {
		return fmt.Errorf("Tools[%d]: %w", te.Index, err)
	}
	return fmt.Errorf("Tools: %w", err)
}

// ResolveConfig returns cfg as New uses it: defaults filled in, bounds
// checked (errors wrap ErrInvalidConfig; each is a *ConfigError). A binding
// that builds its own engine for NewWithEngine sizes it from the result.
func ResolveConfig(cfg Config) (Config, error) {
	return cfg.withDefaults()
}

func newCodeMode(engine *sandbox.Engine, cfg Config) (*CodeMode, error) {
	c := &CodeMode{cfg: cfg, reg: newRegistry(), engine: engine}
	if cfg.TimeZone != "UTC" {
		c.zone = newLocalZone(cfg.TimeZone, cfg.TimeZones)
	}
	if cfg.Random != defaultRandom {
		c.cfg.Random = &lockedReader{r: cfg.Random}
	}
	c.done, c.close = context.WithCancel(context.Background())
	c.emb = newEmbedder(cfg.Search, c.done)
	if len(cfg.Tools) > 0 {
		if _, err := c.reg.add(cfg.Tools...); err != nil {
			engine.Close()
			return nil, toolsError(err)
		}
		c.emb.prefetch(c.reg.snapshot())
	}
	return c, nil
}

// RegisterTools adds tools, all or none. The returned function removes
// them, from runs in flight too (their next call of one fails); calling it
// again does nothing, and it never removes a tool registered later under
// one of their names. An invalid tool gives an error wrapping
// ErrInvalidTool; a name registered already, twice in tools, or a live
// session's own, ErrDuplicateTool; a closed CodeMode, ErrClosed.
func (c *CodeMode) RegisterTools(tools ...Tool) (unregister func(), err error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	c.names.Lock()
	for i, t := range tools {
		if c.sessionNames[t.Name] > 0 {
			c.names.Unlock()
			return nil, duplicateTool(i, t.Name, "already a tool of a session (createSession's tools)")
		}
	}
	unregister, err = c.reg.add(tools...)
	c.names.Unlock()
	if err == nil && c.emb != nil {
		added := make([]*toolEntry, 0, len(tools))
		for _, t := range tools {
			if e, ok := c.reg.lookup(t.Name); ok {
				added = append(added, e)
			}
		}
		c.emb.prefetch(added)
		remove := unregister
		var once sync.Once
		unregister = func() {
			remove()
			once.Do(func() { c.emb.release(added) })
		}
	}
	return unregister, err
}

// ListTools returns the registered tools that pass ToolFilter, by name
// (nil for none, and for a CodeMode not made by New). After Close it still
// answers: Close unregisters nothing.
func (c *CodeMode) ListTools() []ToolInfo {
	if c == nil || c.engine == nil {
		return nil
	}
	var out []ToolInfo
	for _, e := range c.visible(nil) {
		out = append(out, e.view())
	}
	return out
}

// visible returns the factory's tools plus a session's own, filtered and
// sorted by name. A session tool shadows nothing: names are unique across
// both (checked when the session is created or a tool registered).
func (c *CodeMode) visible(own *registry) []*toolEntry {
	all := c.reg.snapshot()
	if own != nil {
		if mine := own.snapshot(); len(mine) > 0 {
			all = mergeByName(all, mine)
		}
	}
	if c.cfg.ToolFilter == nil {
		return all
	}
	out := make([]*toolEntry, 0, len(all))
	for _, e := range all {
		if c.filter(e) {
			out = append(out, e)
		}
	}
	return out
}

// filter applies ToolFilter; a filter that panics hides the tool (fail
// closed).
func (c *CodeMode) filter(e *toolEntry) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return c.cfg.ToolFilter(e.info)
}

func mergeByName(a, b []*toolEntry) []*toolEntry {
	out := make([]*toolEntry, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		if j == len(b) || (i < len(a) && a[i].info.Name < b[j].info.Name) {
			out = append(out, a[i])
			i++
		} else {
			out = append(out, b[j])
			j++
		}
	}
	return out
}

// NewSession returns a session; tools are visible to it alone, and their
// names are the session's until it is closed. An invalid tool gives an
// error wrapping ErrInvalidTool; a name of the CodeMode's tools, or twice
// in tools, ErrDuplicateTool; a closed CodeMode, ErrClosed.
func (c *CodeMode) NewSession(tools ...Tool) (*Session, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	s := &Session{cm: c, own: newRegistry(), ns: nsMemo{whole: c.reg}}
	s.done, s.close = context.WithCancel(context.Background())
	if err := s.AddTools(tools...); err != nil {
		return nil, err
	}
	return s, nil
}

// AddTools adds tools of the session's own, all or none, as NewSession's
// (the JavaScript binding's worker adds a tool toolFilter hid once a run
// shows it). Its errors are NewSession's; a closed session, ErrClosed.
func (s *Session) AddTools(tools ...Tool) error {
	if len(tools) == 0 {
		return nil
	}
	c := s.cm
	// Under names, where Close reads the session's own names back.
	c.names.Lock()
	err := ErrClosed
	if !s.closed.Load() {
		err = nil
		for i, t := range tools {
			if _, dup := c.reg.lookup(t.Name); dup {
				err = duplicateTool(i, t.Name, "already registered on the factory")
				break
			}
		}
	}
	if err == nil {
		_, err = s.own.add(tools...)
	}
	var added []*toolEntry
	if err == nil {
		if c.sessionNames == nil {
			c.sessionNames = map[string]int{}
		}
		for _, t := range tools {
			c.sessionNames[t.Name]++
			e, _ := s.own.lookup(t.Name)
			added = append(added, e)
		}
	}
	c.names.Unlock()
	c.emb.prefetch(added)
	return err
}

// Close stops every run in flight (as Session.Close does) and frees the
// engine; later calls fail with ErrClosed. Closing again, or closing a nil
// CodeMode (defer cm.Close() before New's error is checked), does nothing.
// Like Session.Close it does not wait for the runs' tools, and its error
// is always nil.
func (c *CodeMode) Close() error {
	if c == nil || c.engine == nil || c.closed.Swap(true) {
		return nil
	}
	c.close()
	return c.engine.Close()
}

// check says whether c can be used: made by New and not closed.
func (c *CodeMode) check() error {
	if c == nil || c.engine == nil {
		return fmt.Errorf("%w: a zero or nil CodeMode is not usable: make one with New", ErrClosed)
	}
	if c.closed.Load() {
		return ErrClosed
	}
	return nil
}
