package codemode

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/interopio/code-mode/internal/search"
)

// SearchConfig plugs a semantic ranking into tool search, for hosts that
// already have an embeddings endpoint. The zero value searches lexically.
type SearchConfig struct {
	// Embed returns one vector per text, all of the same length. It is
	// called in batches with the text of newly registered tools (name and
	// description; each text once, however often it is registered, unless
	// it was unregistered and 1,024 others after it: its vector is then
	// forgotten, so that tools that come and go do not grow memory), and
	// once per search with the query. An error, vectors of the wrong
	// number or length, or no answer within Timeout make that search (and
	// those of the next 30 seconds) lexical, and are reported to Warn.
	// Calls may overlap: registrations and searches run on several
	// goroutines. The vectors are copied as Embed returns, so it may
	// answer every call in the same buffer.
	Embed func(ctx context.Context, texts []string) ([][]float32, error)
	// Weight is the semantic rank's weight in the fusion, relative to the
	// lexical rank's 1. Default 0.1 (search.DefaultSemanticWeight): chosen
	// with a character-trigram stand-in that knows no meanings (no model
	// can be fetched where it was tuned), so that fusion never lowers the
	// lexical figures; with a real model, measure on your catalog and
	// raise it (1 fuses evenly).
	Weight float64
	// MinSimilarity is the cosine a tool needs to be returned on semantic
	// grounds alone, without a good lexical match: 0..1, default 0.5.
	MinSimilarity float64
	// Warn receives a message when the embedder fails and search falls
	// back to lexical ranking. Default: a line on standard error (also
	// where the message goes when Warn panics). Concurrent searches may
	// call it from several goroutines at once.
	Warn func(msg string)
	// Timeout bounds the embedding a search waits for (its query, and
	// tools still being embedded); past it, that search is lexical.
	// Default 5s.
	Timeout time.Duration
}

const (
	defaultMinSimilarity = 0.5
	defaultEmbedTimeout  = 5 * time.Second
	// embedBackoff is how long searches stay lexical after the embedder
	// failed, so that a dead endpoint does not cost every search a timeout.
	embedBackoff = 30 * time.Second
	// prefetchTimeout bounds one registration-time embedding.
	prefetchTimeout = 60 * time.Second
	// embedBatch bounds the texts of one Embed call at registration.
	embedBatch = 64
)

// SearchRequest is one tool search.
type SearchRequest struct {
	// Query is what the caller wants to do, in words, or a tool or
	// namespace name. Empty lists tools by name. Only its first 1,000
	// characters are read.
	Query string
	// Namespace restricts the search to one namespace ("orders" or
	// "crm.accounts"); with an empty Query it lists that namespace.
	Namespace string
	// Limit is the number of hits: <= 0 means 10 (50 when listing a
	// namespace); at most 50. A larger one gives 50, not an error.
	Limit int
}

// Search finds visible tools, best first. With SearchConfig.Embed, the
// ranking fuses lexical and semantic ranks, waiting for the vectors of
// tools still being embedded. No hit means no tool matches well enough.
// It fails once the session or its CodeMode is closed (ErrClosed), for a
// nil ctx (as ExecuteCode), and when ctx is done, before or during that wait, with an error matching
// ctx.Err() and its cause (as ExecuteCode's).
func (s *Session) Search(ctx context.Context, req SearchRequest) ([]SearchHit, error) {
	if err := s.checkCtx(ctx); err != nil {
		return nil, err
	}
	hits, _, err := s.searchVisible(ctx, req)
	return hits, err
}

// searchVisible is Search, also returning the visible tools it searched
// (toolFilter is asked once per search).
func (s *Session) searchVisible(ctx context.Context, req SearchRequest) ([]SearchHit, []*toolEntry, error) {
	if ctx.Err() != nil {
		return nil, nil, stoppedBy(ctx)
	}
	entries := s.cm.visible(s.own)
	hits := s.cm.search(ctx, entries, req, s.signature)
	if ctx.Err() != nil {
		// The wait for embeddings was cut short: the ranking is not the
		// one asked for.
		return nil, nil, stoppedBy(ctx)
	}
	return hits, entries, nil
}

// maxQueryChars bounds a search's query (in characters), as the prelude
// bounds tool_search's: a longer one says nothing more about the tool, and
// cost time in proportion (a 50 MB query held the calling thread 25 s) and
// went whole to the host's embeddings endpoint.
const maxQueryChars = 1000

// search ranks entries (already filtered) for a request; sig gives a hit's
// signature (a session's, with the result types it has seen).
func (c *CodeMode) search(ctx context.Context, entries []*toolEntry, req SearchRequest, sig func(*toolEntry) string) []SearchHit {
	if len(req.Query) > maxQueryChars {
		n := 0
		for i := range req.Query {
			if n == maxQueryChars {
				req.Query = req.Query[:i]
				break
			}
			n++
		}
	}
	if ns := searchNamespace(req.Namespace); ns != "" {
		entries = inNamespace(entries, ns)
		if strings.TrimSpace(req.Query) == "" && req.Limit <= 0 {
			req.Limit = search.MaxLimit
		}
	}
	opts := search.Options{Limit: req.Limit}
	if c.emb != nil && strings.TrimSpace(req.Query) != "" && len(entries) > 0 {
		if sim, err := c.emb.similarities(ctx, entries, req.Query); err != nil {
			// A search whose caller stopped (an abort, the run's end, a
			// dispose) has no one to tell, and the embedder did not fail.
			if ctx.Err() == nil {
				c.emb.warn(err)
			}
		} else {
			opts.Similarity, opts.SemanticWeight, opts.MinSimilarity = sim, c.emb.weight, c.emb.minSim
		}
	}
	return hitsOf(entries, search.RankWith(docsOf(entries), req.Query, opts), sig)
}

// embedder computes and caches the vectors of tool texts. Vectors are keyed
// by text, so a tool registered again (or by another session) costs
// nothing, and a tool whose description changed is embedded anew.
type embedder struct {
	embed   func(ctx context.Context, texts []string) ([][]float32, error)
	weight  float64 // <= 0: the ranking's default
	minSim  float64
	warnf   func(string)
	timeout time.Duration
	// done ends with the CodeMode (Close): registration-time embeddings
	// stop then, instead of calling Embed for up to prefetchTimeout after.
	done context.Context

	mu      sync.Mutex
	vecs    map[string][]float32
	pending map[string]chan struct{} // closed when the text's batch ends
	// refs counts the registrations (the CodeMode's, live sessions') of
	// each text; idle holds, oldest first, texts that none has any more
	// whose vectors are kept for a registration again, up to maxIdleVecs.
	// Past that a vector is forgotten: kept for ever, a host whose sessions
	// each had a tool of their own text grew by a vector per session
	// (6.6 KB of 1536 numbers) however many it closed.
	refs map[string]int
	idle []string
	dims int
	// retryAt: searches before it are lexical (the embedder failed).
	retryAt time.Time
}

func newEmbedder(cfg SearchConfig, done context.Context) *embedder {
	if cfg.Embed == nil {
		return nil
	}
	e := &embedder{embed: cfg.Embed, weight: cfg.Weight, minSim: cfg.MinSimilarity, warnf: cfg.Warn, timeout: cfg.Timeout, done: done,
		vecs: map[string][]float32{}, pending: map[string]chan struct{}{}, refs: map[string]int{}}
	if e.timeout <= 0 {
		e.timeout = defaultEmbedTimeout
	}
	if e.minSim <= 0 {
		e.minSim = defaultMinSimilarity
	}
	if e.warnf == nil {
		e.warnf = func(msg string) { fmt.Fprintln(os.Stderr, msg) }
	}
	return e
}

// errSkip: the embedder failed recently; this search is lexical without
// trying again (the failure was reported then).
var errSkip = errors.New("embedder failed recently")

// warn reports the embedder's failure to SearchConfig.Warn. One that
// panics is reported on standard error instead: its panic unwound out of
// Session.Search into the caller, as hooks' panics no longer do.
func (e *embedder) warn(err error) {
	if err == errSkip {
		return
	}
	msg := fmt.Sprintf("codemode: tool search is lexical only for this query: the embedder failed: %v", err)
	defer func() {
		if p := recover(); p != nil {
			reportf("codemode: SearchConfig.Warn panicked (%v) on: %s\n", p, msg)
		}
	}()
	e.warnf(msg)
}

// toolText is what is embedded of a tool.
func toolText(e *toolEntry) string { return search.EmbedText(e.info.Name, e.info.Description) }

// maxIdleVecs is how many vectors of texts no longer registered are kept.
const maxIdleVecs = 1024

// prefetch holds the texts of newly registered tools (release lets go of
// them) and embeds them in the background, so that the first search does
// not wait for them. Failures are reported by the searches that need the
// vectors.
func (e *embedder) prefetch(entries []*toolEntry) {
	if e == nil || len(entries) == 0 {
		return
	}
	texts := make([]string, len(entries))
	e.mu.Lock()
	for i, t := range entries {
		texts[i] = toolText(t)
		e.refs[texts[i]]++
	}
	e.mu.Unlock()
	go func() {
		ctx, cancel := context.WithTimeout(e.done, prefetchTimeout)
		defer cancel()
		_ = e.ensure(ctx, texts)
	}()
}

// release lets go of the texts of tools unregistered (their session
// closed): a vector no registration holds is kept among the last
// maxIdleVecs such, then forgotten.
func (e *embedder) release(entries []*toolEntry) {
	if e == nil || len(entries) == 0 {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, t := range entries {
		text := toolText(t)
		if e.refs[text]--; e.refs[text] > 0 {
			continue
		}
		delete(e.refs, text)
		if _, ok := e.vecs[text]; ok {
			e.idle = append(e.idle, text)
		}
	}
	for len(e.idle) > maxIdleVecs {
		if text := e.idle[0]; e.refs[text] == 0 {
			delete(e.vecs, text)
		}
		e.idle = e.idle[1:]
	}
}

// ensure makes sure every text has a vector: it embeds the missing ones in
// batches and waits for those another call is embedding. A text whose
// other call failed (a registration's prefetch, whose failures no one
// reports) is embedded here after the wait, once, so that this search
// meets the failure and reports it: it ranked lexically without a word
// when it came while the prefetch was under way.
func (e *embedder) ensure(ctx context.Context, texts []string) error {
	waited, err := e.ensureOnce(ctx, texts)
	if err == nil && waited {
		_, err = e.ensureOnce(ctx, texts)
	}
	return err
}

// ensureOnce is ensure's one pass; waited says whether it waited for
// texts another call was embedding.
func (e *embedder) ensureOnce(ctx context.Context, texts []string) (waited bool, err error) {
	e.mu.Lock()
	var mine []string
	var wait []chan struct{}
	seen := map[string]bool{}
	for _, t := range texts {
		if _, ok := e.vecs[t]; ok || seen[t] {
			continue
		}
		seen[t] = true
		if ch, ok := e.pending[t]; ok {
			wait = append(wait, ch)
			continue
		}
		mine = append(mine, t)
	}
	var chans []chan struct{}
	for i := 0; i < len(mine); i += embedBatch {
		ch := make(chan struct{})
		for _, t := range mine[i:min(i+embedBatch, len(mine))] {
			e.pending[t] = ch
		}
		chans = append(chans, ch)
	}
	e.mu.Unlock()

	var firstErr error
	for b, ch := range chans {
		batch := mine[b*embedBatch : min((b+1)*embedBatch, len(mine))]
		vecs, err := [][]float32(nil), ctx.Err()
		if err == nil { // no Embed call once the caller gave up (or Close)
			vecs, err = e.call(ctx, batch)
		}
		e.mu.Lock()
		for i, t := range batch {
			delete(e.pending, t)
			// A text released meanwhile is not kept: a search that
			// still sees its tool ranks it lexically (NaN below).
			if err == nil && e.refs[t] > 0 {
				e.vecs[t] = vecs[i]
			}
		}
		e.mu.Unlock()
		close(ch)
		if err != nil && firstErr == nil {
			firstErr = err
		}
	}
	for _, ch := range wait {
		select {
		case <-ch:
		case <-ctx.Done():
			return true, ctx.Err()
		}
	}
	return len(wait) > 0, firstErr
}

// call runs Embed and checks its answer: one vector per text, all of the
// same, non-zero length. It returns copies: the tools' vectors are kept
// for every later search, and an embedder may answer each call in the
// same buffer (a model's output tensor), writing the query's vector over
// a tool's.
func (e *embedder) call(ctx context.Context, texts []string) (out [][]float32, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("embed panicked: %v", p)
		}
	}()
	vecs, err := e.embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	if len(vecs) != len(texts) {
		return nil, fmt.Errorf("embed returned %d vectors for %d texts", len(vecs), len(texts))
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for i, v := range vecs {
		if len(v) == 0 {
			return nil, fmt.Errorf("embed returned an empty vector at %d", i)
		}
		if e.dims == 0 {
			e.dims = len(v)
		}
		if len(v) != e.dims {
			return nil, fmt.Errorf("embed returned a vector of %d numbers at %d, want %d like the others", len(v), i, e.dims)
		}
	}
	all := make([]float32, 0, len(vecs)*e.dims)
	out = make([][]float32, len(vecs))
	for i, v := range vecs {
		all = append(all, v...)
		out[i] = all[len(all)-len(v) : len(all) : len(all)]
	}
	return out, nil
}

// similarities returns the cosine of the query with each entry's text.
func (e *embedder) similarities(ctx context.Context, entries []*toolEntry, query string) (sim []float64, err error) {
	e.mu.Lock()
	wait := time.Until(e.retryAt)
	e.mu.Unlock()
	if wait > 0 {
		return nil, errSkip
	}
	caller := ctx
	defer func() {
		// Only the embedder's own failure (an error, its timeout) makes
		// the next searches lexical, not the caller's giving up.
		if err != nil && caller.Err() == nil {
			e.mu.Lock()
			e.retryAt = time.Now().Add(embedBackoff)
			e.mu.Unlock()
		}
	}()
	ctx, cancel := context.WithTimeout(ctx, e.timeout)
	defer cancel()
	texts := make([]string, len(entries))
	for i, t := range entries {
		texts[i] = toolText(t)
	}
	if err := e.ensure(ctx, texts); err != nil {
		return nil, err
	}
	qv, err := e.call(ctx, []string{query})
	if err != nil {
		return nil, err
	}
	sim = make([]float64, len(entries))
	e.mu.Lock()
	defer e.mu.Unlock()
	for i, t := range texts {
		v, ok := e.vecs[t]
		if !ok { // its tool was unregistered during this search
			sim[i] = math.NaN()
			continue
		}
		sim[i] = search.Cosine(qv[0], v)
	}
	return sim, nil
}
