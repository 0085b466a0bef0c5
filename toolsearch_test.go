package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"
)

func hitNames(hits []SearchHit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Name)
	}
	return out
}

// TestSearchNamespaces: tool_search({namespace}) lists a namespace, a query
// can be restricted to one, and every hit carries its namespace; hidden
// tools stay hidden from listings too.
func TestSearchNamespaces(t *testing.T) {
	cm := newTestCodeMode(t, Config{Tools: []Tool{
		{Name: "orders.notes.add", Description: "Add a note to an order.", Execute: noopToolExecute},
		{Name: "echo", Description: "Echo the input.", Execute: noopToolExecute},
	}})
	s := mustSession(t, cm)
	tests := []struct {
		name string
		req  SearchRequest
		want []string
	}{
		{"namespace listed by name", SearchRequest{Namespace: "orders"}, []string{"orders.get", "orders.notes.add", "orders.search"}},
		{"nested namespace", SearchRequest{Namespace: "orders.notes"}, []string{"orders.notes.add"}},
		{"tools. prefix and dots tolerated", SearchRequest{Namespace: "tools.orders."}, []string{"orders.get", "orders.notes.add", "orders.search"}},
		{"query within a namespace", SearchRequest{Query: "add a note", Namespace: "orders"}, []string{"orders.notes.add"}},
		{"query outside the namespace finds nothing", SearchRequest{Query: "transfer money", Namespace: "orders"}, nil},
		{"hidden namespace lists nothing", SearchRequest{Namespace: "admin"}, nil},
		{"limit applies to listings", SearchRequest{Namespace: "orders", Limit: 1}, []string{"orders.get"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hits, err := s.Search(context.Background(), tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if got := hitNames(hits); !slices.Equal(got, tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
		})
	}
	hits, err := s.SearchTools("", 50)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits {
		want := ""
		if i := strings.LastIndexByte(h.Name, '.'); i >= 0 {
			want = h.Name[:i]
		}
		if h.Namespace != want {
			t.Errorf("%s: namespace %q, want %q", h.Name, h.Namespace, want)
		}
	}
}

// TestToolSearchInSandbox: inside a run, tool_search takes a namespace,
// its hits carry the namespace, and a search without a good match returns
// [] and says so in the logs, naming the namespaces to browse.
func TestToolSearchInSandbox(t *testing.T) {
	cm := newTestCodeMode(t, Config{})
	s := mustSession(t, cm)
	res := exec(t, s, `const all = await tool_search({ namespace: "orders" });
const none = await tool_search({ query: "zzqx wibble" });
return { names: all.map((h) => h.name + "@" + h.namespace), none };`, nil)
	if !res.OK {
		t.Fatalf("run failed: %+v", res.Error)
	}
	got, _ := json.Marshal(res.Result)
	if string(got) != `{"names":["orders.get@orders","orders.search@orders"],"none":[]}` {
		t.Fatalf("result %s", got)
	}
	if len(res.Logs) != 1 || res.Logs[0].Level != "info" ||
		res.Logs[0].Message != `tool_search: no tool matches "zzqx wibble"; try other words, or list a namespace with tool_search({ namespace }): orders, payments, util.` {
		t.Fatalf("logs %+v", res.Logs)
	}
}

// fakeEmbedder is a deterministic embedder: a text's vector counts a few
// concept words, so "cash" and "money" agree where no word is shared.
type fakeEmbedder struct {
	mu    sync.Mutex
	calls [][]string
	fail  bool
}

func (f *fakeEmbedder) embed(_ context.Context, texts []string) ([][]float32, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, slices.Clone(texts))
	if f.fail {
		return nil, errors.New("endpoint down")
	}
	concepts := [][]string{{"money", "cash", "transfer", "pay"}, {"order", "purchase"}, {"note", "comment"}}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, len(concepts)+1)
		v[len(concepts)] = 0.01
		lt := strings.ToLower(t)
		for c, words := range concepts {
			for _, w := range words {
				if strings.Contains(lt, w) {
					v[c]++
				}
			}
		}
		out[i] = v
	}
	return out, nil
}

func (f *fakeEmbedder) texts() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, c := range f.calls {
		out = append(out, c...)
	}
	return out
}

// TestSearchEmbedder: tool vectors are computed in batches at registration,
// once per text; each search embeds its query; the fused ranking finds a
// tool no word of the query names; a failing embedder leaves search
// lexical and warns.
func TestSearchEmbedder(t *testing.T) {
	f := &fakeEmbedder{}
	var warnings []string
	var wmu sync.Mutex
	cm := newTestCodeMode(t, Config{Search: SearchConfig{Embed: f.embed, Warn: func(m string) {
		wmu.Lock()
		warnings = append(warnings, m)
		wmu.Unlock()
	}}})
	s := mustSession(t, cm)
	// Registration embeds every tool, hidden ones too, in one batch, in
	// the background.
	deadline := time.Now().Add(10 * time.Second)
	for len(f.texts()) < 8 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	f.mu.Lock()
	calls := slices.Clone(f.calls)
	f.mu.Unlock()
	if len(calls) != 1 || len(calls[0]) != 8 || !slices.Contains(calls[0], "admin.wipe\nDelete everything.") {
		t.Fatalf("registration embedded %q, want the 8 tools in one batch", calls)
	}
	hits, err := s.Search(context.Background(), SearchRequest{Query: "send cash"})
	if err != nil {
		t.Fatal(err)
	}
	if got := hitNames(hits); len(got) == 0 || got[0] != "payments.transfer" {
		t.Fatalf("semantic hit: got %v, want payments.transfer first", got)
	}
	// The search embedded its query and nothing else.
	if texts := f.texts(); len(texts) != 9 || texts[8] != "send cash" {
		t.Fatalf("embedded texts: %q", texts)
	}
	// Registering the same text again costs no call.
	before := len(f.texts())
	unregister, err := cm.RegisterTools(Tool{Name: "payments.refund", Description: "Refund a payment.", Execute: noopToolExecute})
	if err != nil {
		t.Fatal(err)
	}
	unregister()
	if _, err := cm.RegisterTools(Tool{Name: "payments.refund", Description: "Refund a payment.", Execute: noopToolExecute}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Search(context.Background(), SearchRequest{Query: "pay back"}); err != nil {
		t.Fatal(err)
	}
	added := f.texts()[before:]
	n := 0
	for _, x := range added {
		if x == "payments.refund\nRefund a payment." {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("refund text embedded %d times, want once: %q", n, added)
	}

	// A failing embedder: lexical results and a warning.
	f.mu.Lock()
	f.fail = true
	f.mu.Unlock()
	hits, err = s.Search(context.Background(), SearchRequest{Query: "transfer money"})
	if err != nil {
		t.Fatal(err)
	}
	if got := hitNames(hits); len(got) == 0 || got[0] != "payments.transfer" {
		t.Fatalf("lexical fallback: got %v", got)
	}
	wmu.Lock()
	defer wmu.Unlock()
	if len(warnings) != 1 || !strings.Contains(warnings[0], "lexical") || !strings.Contains(warnings[0], "endpoint down") {
		t.Fatalf("warnings %q", warnings)
	}
}

// TestSearchEmbedderBadVectors: vectors of the wrong number or length are
// an embedder failure, not a crash.
func TestSearchEmbedderBadVectors(t *testing.T) {
	for _, tt := range []struct {
		name  string
		embed func(context.Context, []string) ([][]float32, error)
		want  string
	}{
		{"too few", func(_ context.Context, texts []string) ([][]float32, error) {
			return make([][]float32, len(texts)-1), nil
		}, "vectors for"},
		{"ragged", func(_ context.Context, texts []string) ([][]float32, error) {
			out := make([][]float32, len(texts))
			for i := range out {
				out[i] = make([]float32, 2+i%2)
			}
			return out, nil
		}, "want 2"},
		{"panics", func(context.Context, []string) ([][]float32, error) { panic("bug") }, "panicked"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var warned []string
			var mu sync.Mutex
			cm := newTestCodeMode(t, Config{Search: SearchConfig{Embed: tt.embed, Warn: func(m string) { mu.Lock(); warned = append(warned, m); mu.Unlock() }}})
			s := mustSession(t, cm)
			hits, err := s.Search(context.Background(), SearchRequest{Query: "search orders"})
			if err != nil {
				t.Fatal(err)
			}
			if got := hitNames(hits); len(got) == 0 || got[0] != "orders.search" {
				t.Fatalf("got %v", got)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(warned) == 0 || !strings.Contains(warned[0], tt.want) {
				t.Fatalf("warnings %q, want one containing %q", warned, tt.want)
			}
		})
	}
}

// TestSearchEmbedderFailedWhileWaited: a search that comes while the
// registration's prefetch is embedding waits for it; when that fails (no
// one reports a prefetch's failure), the search embeds the tools itself
// and reports the embedder's failure. It ranked lexically without a word
// (TestSearchEmbedderBadVectors failed so on a loaded machine).
func TestSearchEmbedderFailedWhileWaited(t *testing.T) {
	release := make(chan struct{})
	var calls atomic.Int32
	ragged := func(_ context.Context, texts []string) ([][]float32, error) {
		if calls.Add(1) == 1 {
			<-release // the prefetch, held until the search waits for it
		}
		out := make([][]float32, len(texts))
		for i := range out {
			out[i] = make([]float32, 2+i%2)
		}
		return out, nil
	}
	var warned []string
	var mu sync.Mutex
	cm := newTestCodeMode(t, Config{Search: SearchConfig{Embed: ragged, Warn: func(m string) { mu.Lock(); warned = append(warned, m); mu.Unlock() }}})
	s := mustSession(t, cm)
	done := make(chan []SearchHit)
	go func() {
		hits, err := s.Search(context.Background(), SearchRequest{Query: "search orders"})
		if err != nil {
			t.Error(err)
		}
		done <- hits
	}()
	// Time for the search to reach its wait; were it later, it would find
	// the prefetch ended and embed the tools itself, as the fix does.
	time.Sleep(100 * time.Millisecond)
	close(release)
	if got := hitNames(<-done); len(got) == 0 || got[0] != "orders.search" {
		t.Fatalf("got %v", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(warned) != 1 || !strings.Contains(warned[0], "want 2") {
		t.Fatalf("warnings %q, want one saying the vectors' lengths differ", warned)
	}
}

// TestSearchEmbedderTimeout: an embedder that never answers makes the
// search lexical after SearchConfig.Timeout, with a warning.
func TestSearchEmbedderTimeout(t *testing.T) {
	var warned []string
	var mu sync.Mutex
	hang := func(ctx context.Context, _ []string) ([][]float32, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	cm := newTestCodeMode(t, Config{Search: SearchConfig{Embed: hang, Timeout: 50 * time.Millisecond, Warn: func(m string) { mu.Lock(); warned = append(warned, m); mu.Unlock() }}})
	s := mustSession(t, cm)
	hits, err := s.Search(context.Background(), SearchRequest{Query: "transfer money"})
	if err != nil {
		t.Fatal(err)
	}
	if got := hitNames(hits); len(got) == 0 || got[0] != "payments.transfer" {
		t.Fatalf("got %v", got)
	}
	// The next search does not wait again: it is lexical at once, and the
	// failure is not reported twice.
	again, err := s.Search(context.Background(), SearchRequest{Query: "transfer money"})
	if err != nil || !slices.Equal(hitNames(again), hitNames(hits)) {
		t.Fatalf("second search: %v %v", hitNames(again), err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(warned) != 1 || !strings.Contains(warned[0], "deadline exceeded") {
		t.Fatalf("warnings %q", warned)
	}
}

// TestSearchEmbedderCallerStops: a search whose own context ends while the
// embedder works (the caller aborted, the run timed out, the session was
// disposed) warns nothing and leaves the embedder on: the embedder did not
// fail (the caller gets its context's error). It warned "the embedder failed: context canceled" and made every
// search of the factory lexical, silently, for the next 30 seconds.
func TestSearchEmbedderCallerStops(t *testing.T) {
	var warned []string
	var mu sync.Mutex
	var calls, queries atomic.Int32
	slowOnce := make(chan struct{})
	embed := func(ctx context.Context, texts []string) ([][]float32, error) {
		calls.Add(1)
		// The first query's embedding waits until the caller gives up.
		if len(texts) == 1 && texts[0] == "transfer money" && queries.Add(1) == 1 {
			close(slowOnce)
			<-ctx.Done()
			return nil, ctx.Err()
		}
		out := make([][]float32, len(texts))
		for i := range texts {
			out[i] = []float32{1, float32(len(texts[i]))}
		}
		return out, nil
	}
	cm := newTestCodeMode(t, Config{Search: SearchConfig{Embed: embed, Warn: func(m string) { mu.Lock(); warned = append(warned, m); mu.Unlock() }}})
	s := mustSession(t, cm)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-slowOnce; cancel() }()
	// Its caller hears of its own cancel (Search's doc), not of a failure.
	if hits, err := s.Search(ctx, SearchRequest{Query: "transfer money"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("Search canceled during the embedding: %v, %v; want context.Canceled", hits, err)
	}
	before := calls.Load()
	if _, err := s.Search(context.Background(), SearchRequest{Query: "transfer money"}); err != nil {
		t.Fatal(err)
	}
	if calls.Load() == before {
		t.Errorf("the search after a caller's cancel did not call the embedder (lexical for 30 s)")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(warned) != 0 {
		t.Errorf("warnings %q", warned)
	}
}

// TestSearchQueryCut: a query is cut to 1,000 characters before it is
// ranked or embedded, wherever it comes from (searchTools, Session.Search,
// tool_search, which the prelude cut already): a model's 50 MB query held
// the calling thread 25 s and went whole to the host's embeddings endpoint.
func TestSearchQueryCut(t *testing.T) {
	var mu sync.Mutex
	var longest int
	embed := func(_ context.Context, texts []string) ([][]float32, error) {
		out := make([][]float32, len(texts))
		mu.Lock()
		for i, s := range texts {
			longest = max(longest, utf8.RuneCountInString(s))
			out[i] = []float32{1, 1}
		}
		mu.Unlock()
		return out, nil
	}
	cm := newTestCodeMode(t, Config{Search: SearchConfig{Embed: embed}})
	s := mustSession(t, cm)
	query := strings.Repeat("transfer money é ", 100_000)
	args, _ := json.Marshal(map[string]any{"query": query})
	out, err := s.LLMTools()[0].Execute(context.Background(), args, nil)
	if err != nil || !strings.Contains(string(out), `"payments.transfer"`) {
		t.Fatalf("searchTools: %v %.200s", err, out)
	}
	hits, err := s.Search(context.Background(), SearchRequest{Query: query})
	if err != nil || len(hits) == 0 || hits[0].Name != "payments.transfer" {
		t.Fatalf("Search: %v %v", err, hitNames(hits))
	}
	mu.Lock()
	defer mu.Unlock()
	if longest > maxQueryChars {
		t.Errorf("the embedder got a query of %d characters, want at most %d", longest, maxQueryChars)
	}
}

// TestSearchWarnPanics: a SearchConfig.Warn that panics leaves the search
// lexical, as any embedder failure does, from Session.Search and from
// tool_search in a run, and the message goes to standard error. Before,
// the panic unwound out of Session.Search into the caller.
func TestSearchWarnPanics(t *testing.T) {
	var reported []string
	var mu sync.Mutex
	defer func(f func(string, ...any)) { reportf = f }(reportf)
	reportf = func(format string, args ...any) {
		mu.Lock()
		reported = append(reported, fmt.Sprintf(format, args...))
		mu.Unlock()
	}
	failing := func(context.Context, []string) ([][]float32, error) { return nil, errors.New("endpoint down") }
	for _, tc := range []struct {
		name   string
		search func(*Session) ([]string, error)
	}{
		{"Session.Search", func(s *Session) ([]string, error) {
			hits, err := s.Search(context.Background(), SearchRequest{Query: "search orders"})
			return hitNames(hits), err
		}},
		{"tool_search in a run", func(s *Session) ([]string, error) {
			res, err := s.ExecuteCode(context.Background(), ExecuteCodeInput{Code: `return (await tool_search({query: "search orders"})).map(h => h.name)`}, nil)
			if err != nil || !res.OK {
				return nil, fmt.Errorf("run: %v %+v", err, res)
			}
			var names []string
			return names, json.Unmarshal(res.Result, &names)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mu.Lock()
			reported = nil
			mu.Unlock()
			cm := newTestCodeMode(t, Config{Search: SearchConfig{Embed: failing, Warn: func(string) { panic("warn bug") }}})
			s := mustSession(t, cm)
			var names []string
			var err error
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("the search panicked: %v", p)
					}
				}()
				names, err = tc.search(s)
			}()
			if err != nil {
				t.Fatal(err)
			}
			if len(names) == 0 || names[0] != "orders.search" {
				t.Errorf("hits %v, want orders.search first (lexical)", names)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(reported) != 1 || !strings.Contains(reported[0], "warn bug") || !strings.Contains(reported[0], "endpoint down") {
				t.Errorf("reported %q, want the panic and the embedder's failure", reported)
			}
		})
	}
}

// TestSearchCtxDone: Session.Search, and the searchTools LLM tool, fail
// with ctx's error (matching its cause) when ctx is done, as their docs
// and ExecuteCode's say. Before, they answered with hits and no error.
func TestSearchCtxDone(t *testing.T) {
	cm := newTestCodeMode(t, Config{})
	s := mustSession(t, cm)
	cause := errors.New("the user left")
	canceled, cancel := context.WithCancelCause(context.Background())
	cancel(cause)
	expired, cancelExpired := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer cancelExpired()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		want []error
	}{
		{"canceled with a cause", canceled, []error{context.Canceled, cause}},
		{"past its deadline", expired, []error{context.DeadlineExceeded}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hits, err := s.Search(tc.ctx, SearchRequest{Query: "orders"})
			out, llmErr := s.LLMTools()[0].Execute(tc.ctx, json.RawMessage(`{"query":"orders"}`), nil)
			for _, want := range tc.want {
				if !errors.Is(err, want) {
					t.Errorf("Search: %d hits, %v; want an error matching %q", len(hits), err, want)
				}
				if !errors.Is(llmErr, want) {
					t.Errorf("searchTools.Execute: %s, %v; want an error matching %q", out, llmErr, want)
				}
			}
		})
	}
	if hits, err := s.Search(context.Background(), SearchRequest{Query: "orders"}); err != nil || len(hits) == 0 {
		t.Errorf("Search with a live ctx: %v, %v; want hits", hits, err)
	}
}

// TestSearchEmbedderReusesItsBuffer: an embedder that answers every call
// in the same buffer (as one writing into a model's output tensor does)
// leaves the tools' vectors as they were when embedded. They were kept by
// reference: the query's vector, written over alpha's, made alpha match
// a query only beta matches, and the race detector saw the write.
func TestSearchEmbedderReusesItsBuffer(t *testing.T) {
	var mu sync.Mutex
	buf := [][]float32{make([]float32, 2), make([]float32, 2)}
	embed := func(_ context.Context, texts []string) ([][]float32, error) {
		mu.Lock()
		defer mu.Unlock()
		for i, text := range texts {
			if strings.Contains(text, "alpha") {
				buf[i][0], buf[i][1] = 1, 0
			} else {
				buf[i][0], buf[i][1] = 0, 1 // beta, and the query
			}
		}
		return buf[:len(texts)], nil
	}
	cm := mustNew(t, Config{Search: SearchConfig{Embed: embed}, Tools: []Tool{
		{Name: "alpha", Description: "First.", Execute: noopToolExecute},
		{Name: "beta", Description: "Second.", Execute: noopToolExecute},
	}})
	s := mustSession(t, cm)
	for i := range 2 { // the second search finds the vectors cached
		hits, err := s.Search(context.Background(), SearchRequest{Query: "qqq"})
		if err != nil {
			t.Fatal(err)
		}
		if got := hitNames(hits); !slices.Equal(got, []string{"beta"}) {
			t.Errorf("search %d: %v, want [beta] (alpha's vector is orthogonal to the query's)", i, got)
		}
	}
}

// TestSearchLimitCapped: a limit over 50 gives 50 hits, not an error, from
// Search and SearchTools alike (their docs say so).
func TestSearchLimitCapped(t *testing.T) {
	tools := make([]Tool, 60)
	for i := range tools {
		tools[i] = Tool{Name: fmt.Sprintf("many.t%02d", i), Description: "A parcel tool.", Execute: noopToolExecute}
	}
	s := mustSession(t, mustNew(t, Config{Tools: tools}))
	for _, tc := range []struct {
		name   string
		search func() ([]SearchHit, error)
	}{
		{"Search listing a namespace, Limit 1000", func() ([]SearchHit, error) {
			return s.Search(context.Background(), SearchRequest{Namespace: "many", Limit: 1000})
		}},
		{"Search, Limit 51", func() ([]SearchHit, error) {
			return s.Search(context.Background(), SearchRequest{Query: "parcel", Limit: 51})
		}},
		{"SearchTools, limit 1000", func() ([]SearchHit, error) { return s.SearchTools("parcel", 1000) }},
	} {
		if hits, err := tc.search(); err != nil || len(hits) != 50 {
			t.Errorf("%s: %d hits, %v; want 50, nil", tc.name, len(hits), err)
		}
	}
}

// TestSearchEmbedderForgetsReleasedTexts: the vectors of tools no longer
// registered (unregistered, or their session closed) are kept for the
// last maxIdleVecs texts only. All were kept for ever: a host whose
// sessions each had a tool of their own text grew by a vector a session
// (6.6 KB at 1536 numbers) however many it closed.
func TestSearchEmbedderForgetsReleasedTexts(t *testing.T) {
	embed := func(_ context.Context, texts []string) ([][]float32, error) {
		v := make([][]float32, len(texts))
		for i := range v {
			v[i] = []float32{1, float32(i)}
		}
		return v, nil
	}
	cm := mustNew(t, Config{Search: SearchConfig{Embed: embed}, Tools: []Tool{{Name: "base", Description: "Stays.", Execute: noopToolExecute}}})
	const n = maxIdleVecs + 100
	for i := range n {
		own := Tool{Name: "own.lookup", Description: fmt.Sprintf("Records of user %d.", i), Execute: noopToolExecute}
		var s *Session
		var unregister func()
		if i%2 == 0 {
			s = mustSession(t, cm, own)
		} else {
			var err error
			if unregister, err = cm.RegisterTools(own); err != nil {
				t.Fatal(err)
			}
			s = mustSession(t, cm)
		}
		// The search waits for the vectors of every tool it sees.
		if _, err := s.Search(context.Background(), SearchRequest{Query: "records"}); err != nil {
			t.Fatal(err)
		}
		s.Close()
		if unregister != nil {
			unregister()
			unregister() // again: does nothing, releases nothing twice
		}
	}
	cm.emb.mu.Lock()
	kept, held := len(cm.emb.vecs), len(cm.emb.refs)
	cm.emb.mu.Unlock()
	if kept != 1+maxIdleVecs || held != 1 {
		t.Errorf("after %d tools registered and let go of: %d vectors kept, %d texts held; want %d (base and the last %d), 1",
			n, kept, held, 1+maxIdleVecs, maxIdleVecs)
	}
	// The base tool's vector is still there and used.
	s := mustSession(t, cm)
	if hits, err := s.Search(context.Background(), SearchRequest{Query: "stays"}); err != nil || len(hits) != 1 || hits[0].Name != "base" {
		t.Errorf("search after: %v %v, want [base]", hitNames(hits), err)
	}
}
