package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evanw/esbuild/pkg/api"
)

// The TypeScript corpus: snippets of the kind models write for tool
// orchestration (testdata/tscorpus/*.ts, one per "// ---- name" header).
// Each one runs twice in the same sandbox: as written (our erasure) and as
// esbuild's TypeScript transform of it (the oracle). Both runs must agree
// on everything the model sees except positions: ok, result, error code,
// name and message, logs and tool calls. esbuild is a test dependency only:
// it never enters the GOOS=js core (see TestCoreImports).

var snippetHeader = regexp.MustCompile(`(?m)^// ---- (.+)\n`)

type snippet struct{ file, name, code string }

func loadCorpus(t *testing.T) []snippet {
	t.Helper()
	files, err := filepath.Glob("testdata/tscorpus/*.ts")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	var out []snippet
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		idx := snippetHeader.FindAllStringSubmatchIndex(src, -1)
		for i, m := range idx {
			end := len(src)
			if i+1 < len(idx) {
				end = idx[i+1][0]
			}
			out = append(out, snippet{filepath.Base(f), src[m[2]:m[3]], strings.TrimRight(src[m[1]:end], "\n")})
		}
	}
	return out
}

// oracle is esbuild's JavaScript for a snippet: the snippet is transformed
// as the body of an async function (import type lines and namespace or
// declare blocks, which TypeScript allows only at the top, go before it),
// and the body is taken back out.
func oracle(code string) (string, error) {
	var head, body []string
	hoist := false
	for _, l := range strings.Split(code, "\n") {
		switch {
		case strings.HasPrefix(l, "import type "):
			head = append(head, l)
		case hoist || strings.HasPrefix(l, "namespace ") || strings.HasPrefix(l, "declare module ") || strings.HasPrefix(l, "declare global "):
			// Blocks TypeScript allows only at the top of a file.
			head = append(head, l)
			hoist = l != "}"
		default:
			body = append(body, l)
		}
	}
	src := strings.Join(head, "\n") + "\nasync function __snippet__() {\n" + strings.Join(body, "\n") + "\n}\n"
	r := api.Transform(src, api.TransformOptions{Loader: api.LoaderTS, Target: api.ESNext})
	if len(r.Errors) > 0 {
		return "", fmt.Errorf("esbuild: %s (line %d)", r.Errors[0].Text, r.Errors[0].Location.Line)
	}
	out := string(r.Code)
	start := strings.Index(out, "async function __snippet__() {\n")
	stop := strings.LastIndex(out, "}")
	if start < 0 || stop < start {
		return "", fmt.Errorf("esbuild output has no snippet function:\n%s", out)
	}
	return out[start+len("async function __snippet__() {\n") : stop], nil
}

// corpusTools is a small back office with deterministic data. State that a
// program changes (the kv store, started jobs) lives in the run's call
// context, so both runs of a snippet start from the same state.
func corpusTools() []Tool {
	type order struct {
		ID         string       `json:"id"`
		CustomerID string       `json:"customerId"`
		Status     string       `json:"status"`
		Total      float64      `json:"total"`
		Items      []corpusItem `json:"items"`
		CreatedAt  string       `json:"createdAt"`
	}
	orders := []order{
		{"o-1", "c-1", "open", 120.5, []corpusItem{{"sku-a", 2, 10}, {"sku-b", 1, 100.5}}, "2024-03-01T10:00:00Z"},
		{"o-2", "c-2", "shipped", 42, []corpusItem{{"sku-c", 3, 14}}, "2024-03-02T11:30:00Z"},
		{"o-3", "c-1", "open", 9.99, []corpusItem{{"sku-a", 1, 9.99}}, "2024-03-05T08:15:00Z"},
		{"o-4", "c-3", "cancelled", 300, []corpusItem{{"sku-d", 1, 300}}, "2024-02-20T16:45:00Z"},
		{"o-5", "c-2", "open", 75.25, []corpusItem{{"sku-b", 1, 50}, {"sku-c", 1, 25.25}}, "2024-03-07T09:00:00Z"},
		{"o-6", "c-4", "shipped", 18, []corpusItem{{"sku-e", 6, 3}}, "2024-03-03T14:20:00Z"},
	}
	customers := []map[string]any{
		{"id": "c-1", "name": "Ada Lovelace", "email": "ada@example.com", "tier": "gold", "country": "GB"},
		{"id": "c-2", "name": "Grace Hopper", "email": "grace@example.com", "tier": "silver", "country": "US"},
		{"id": "c-3", "name": "Alan Turing", "email": "alan@example.com", "tier": "bronze", "country": "GB"},
		{"id": "c-4", "name": "Katherine Johnson", "email": "kj@example.com", "tier": "gold", "country": "US"},
	}
	stock := map[string]int{"sku-a": 12, "sku-b": 0, "sku-c": 5, "sku-d": 1, "sku-e": 40}
	issues := []map[string]any{
		{"number": 101, "title": "Crash on empty cart", "state": "open", "labels": []string{"bug", "p1"}, "assignee": "ada", "comments": 4},
		{"number": 102, "title": "Add dark mode", "state": "open", "labels": []string{"enhancement"}, "assignee": nil, "comments": 12},
		{"number": 103, "title": "Typo in README", "state": "closed", "labels": []string{"docs"}, "assignee": "grace", "comments": 1},
		{"number": 104, "title": "Slow search on large catalogs", "state": "open", "labels": []string{"bug", "performance"}, "assignee": "alan", "comments": 7},
	}
	weather := map[string]map[string]any{
		"London": {"city": "London", "tempC": 11.5, "conditions": "rain", "windKph": 22},
		"Paris":  {"city": "Paris", "tempC": 14, "conditions": "cloudy", "windKph": 9},
		"Tokyo":  {"city": "Tokyo", "tempC": 18.2, "conditions": "clear", "windKph": 5},
	}
	js := func(v any) (json.RawMessage, error) { return json.Marshal(v) }
	in := func(raw json.RawMessage) map[string]any {
		m := map[string]any{}
		json.Unmarshal(raw, &m)
		return m
	}
	state := func(c Call) *runStore { return c.Context.(*runStore) }
	tool := func(name, desc, schema string, f func(map[string]any, Call) (any, error)) Tool {
		return Tool{Name: name, Description: desc, InputSchema: json.RawMessage(schema),
			Execute: func(_ context.Context, raw json.RawMessage, c Call) (json.RawMessage, error) {
				v, err := f(in(raw), c)
				if err != nil {
					return nil, err
				}
				return js(v)
			}}
	}
	str := func(m map[string]any, k string) string { s, _ := m[k].(string); return s }
	return []Tool{
		tool("orders.search", "Search orders by status.", `{"type":"object","properties":{"status":{"type":"string"},"customerId":{"type":"string"},"limit":{"type":"integer"}}}`,
			func(m map[string]any, _ Call) (any, error) {
				out := []order{}
				for _, o := range orders {
					if (str(m, "status") == "" || o.Status == str(m, "status")) && (str(m, "customerId") == "" || o.CustomerID == str(m, "customerId")) {
						out = append(out, o)
					}
				}
				if l, ok := m["limit"].(float64); ok && int(l) < len(out) {
					out = out[:int(l)]
				}
				return out, nil
			}),
		tool("orders.get", "Get one order by id.", `{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`,
			func(m map[string]any, _ Call) (any, error) {
				for _, o := range orders {
					if o.ID == str(m, "id") {
						return o, nil
					}
				}
				return nil, fmt.Errorf("order %s not found", str(m, "id"))
			}),
		tool("customers.get", "Get a customer by id.", `{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`,
			func(m map[string]any, _ Call) (any, error) {
				for _, c := range customers {
					if c["id"] == str(m, "id") {
						return c, nil
					}
				}
				return nil, fmt.Errorf("customer %s not found", str(m, "id"))
			}),
		tool("customers.list", "List customers.", `{"type":"object","properties":{"tier":{"type":"string"}}}`,
			func(m map[string]any, _ Call) (any, error) {
				out := []map[string]any{}
				for _, c := range customers {
					if str(m, "tier") == "" || c["tier"] == str(m, "tier") {
						out = append(out, c)
					}
				}
				return out, nil
			}),
		tool("inventory.check", "Units in stock for a SKU.", `{"type":"object","properties":{"sku":{"type":"string"}},"required":["sku"]}`,
			func(m map[string]any, _ Call) (any, error) {
				n, ok := stock[str(m, "sku")]
				if !ok {
					return nil, fmt.Errorf("unknown sku %s", str(m, "sku"))
				}
				return map[string]any{"sku": str(m, "sku"), "available": n}, nil
			}),
		tool("payments.refund", "Refund an order.", `{"type":"object","properties":{"orderId":{"type":"string"},"amount":{"type":"number"}},"required":["orderId","amount"]}`,
			func(m map[string]any, c Call) (any, error) {
				amount, _ := m["amount"].(float64)
				if amount <= 0 {
					return nil, errors.New("amount must be positive")
				}
				s := state(c)
				s.mu.Lock()
				defer s.mu.Unlock()
				s.refunds++
				return map[string]any{"ok": true, "refundId": fmt.Sprintf("r-%d", s.refunds), "orderId": str(m, "orderId"), "amount": amount}, nil
			}),
		tool("github.listIssues", "List issues of a repository.", `{"type":"object","properties":{"repo":{"type":"string"},"state":{"type":"string"}},"required":["repo"]}`,
			func(m map[string]any, _ Call) (any, error) {
				out := []map[string]any{}
				for _, is := range issues {
					if str(m, "state") == "" || str(m, "state") == "all" || is["state"] == str(m, "state") {
						out = append(out, is)
					}
				}
				return out, nil
			}),
		tool("github.createComment", "Comment on an issue.", `{"type":"object","properties":{"repo":{"type":"string"},"number":{"type":"integer"},"body":{"type":"string"}},"required":["repo","number","body"]}`,
			func(m map[string]any, c Call) (any, error) {
				s := state(c)
				s.mu.Lock()
				defer s.mu.Unlock()
				s.comments++
				return map[string]any{"id": 9000 + s.comments, "number": m["number"], "body": m["body"]}, nil
			}),
		tool("weather.get", "Current weather for a city.", `{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`,
			func(m map[string]any, _ Call) (any, error) {
				w, ok := weather[str(m, "city")]
				if !ok {
					return nil, fmt.Errorf("no weather for %s", str(m, "city"))
				}
				return w, nil
			}),
		tool("kv.get", "Read a key.", `{"type":"object","properties":{"key":{"type":"string"}},"required":["key"]}`,
			func(m map[string]any, c Call) (any, error) {
				s := state(c)
				s.mu.Lock()
				defer s.mu.Unlock()
				v, ok := s.kv[str(m, "key")]
				if !ok {
					return nil, nil
				}
				return v, nil
			}),
		tool("kv.set", "Write a key.", `{"type":"object","properties":{"key":{"type":"string"},"value":{}},"required":["key"]}`,
			func(m map[string]any, c Call) (any, error) {
				s := state(c)
				s.mu.Lock()
				defer s.mu.Unlock()
				s.kv[str(m, "key")] = m["value"]
				return map[string]any{"ok": true}, nil
			}),
		tool("jobs.start", "Start a background job.", `{"type":"object","properties":{"kind":{"type":"string"}},"required":["kind"]}`,
			func(m map[string]any, c Call) (any, error) {
				s := state(c)
				s.mu.Lock()
				defer s.mu.Unlock()
				s.jobs++
				id := fmt.Sprintf("job-%d", s.jobs)
				s.polls[id] = 0
				return map[string]any{"jobId": id, "kind": str(m, "kind")}, nil
			}),
		tool("jobs.status", "Status of a job: running until its third poll, then done.", `{"type":"object","properties":{"jobId":{"type":"string"}},"required":["jobId"]}`,
			func(m map[string]any, c Call) (any, error) {
				s := state(c)
				s.mu.Lock()
				defer s.mu.Unlock()
				n, ok := s.polls[str(m, "jobId")]
				if !ok {
					return nil, fmt.Errorf("unknown job %s", str(m, "jobId"))
				}
				s.polls[str(m, "jobId")] = n + 1
				if n+1 >= 3 {
					return map[string]any{"jobId": str(m, "jobId"), "state": "done", "result": map[string]any{"rows": 42}}, nil
				}
				return map[string]any{"jobId": str(m, "jobId"), "state": "running", "progress": (n + 1) * 33}, nil
			}),
	}
}

type corpusItem struct {
	SKU   string  `json:"sku"`
	Qty   int     `json:"qty"`
	Price float64 `json:"price"`
}

// runStore is one run's back-office state, passed as its call context.
type runStore struct {
	mu                      sync.Mutex
	kv                      map[string]any
	polls                   map[string]int
	refunds, comments, jobs int
}

func newRunStore() *runStore {
	return &runStore{kv: map[string]any{"greeting": "hello", "limits": map[string]any{"daily": 5}}, polls: map[string]int{}}
}

// visible is what the model sees of a run, positions aside.
func visible(r *ExecuteResult) string {
	v := map[string]any{"ok": r.OK, "result": r.Result, "logs": r.Logs}
	if r.Error != nil {
		v["error"] = [3]string{r.Error.Code, r.Error.Name, r.Error.Message}
	}
	var calls []string
	for _, c := range r.ToolCalls {
		calls = append(calls, fmt.Sprintf("%s %v %v %s", c.Name, c.Allowed, c.OK, c.Reason))
	}
	sort.Strings(calls) // parallel calls finish in any order
	v["calls"] = calls
	b, _ := json.Marshal(v)
	return string(b)
}

func TestTypeScriptCorpus(t *testing.T) {
	snippets := loadCorpus(t)
	if len(snippets) < 150 {
		t.Errorf("the corpus has %d snippets, want at least 150", len(snippets))
	}
	cm := mustNew(t, Config{Tools: corpusTools(), Timeout: 10 * time.Second})
	s := mustSession(t, cm)
	names := map[string]bool{}
	pass := 0
	for _, sn := range snippets {
		if names[sn.name] {
			t.Errorf("%s: duplicate snippet name %q", sn.file, sn.name)
		}
		names[sn.name] = true
		js, err := oracle(sn.code)
		if err != nil {
			t.Errorf("%s/%s: %v", sn.file, sn.name, err)
			continue
		}
		ours, err := s.ExecuteCode(context.Background(), ExecuteCodeInput{Code: sn.code}, newRunStore())
		if err != nil {
			t.Fatal(err)
		}
		theirs, err := s.ExecuteCode(context.Background(), ExecuteCodeInput{Code: js}, newRunStore())
		if err != nil {
			t.Fatal(err)
		}
		a, b := visible(ours), visible(theirs)
		switch {
		case a != b:
			t.Errorf("%s/%s differs from esbuild's output:\n ours   %s\n esbuild %s\n--- esbuild's JavaScript:\n%s", sn.file, sn.name, a, b, js)
		case !ours.OK && !strings.HasPrefix(sn.name, "fails:"):
			t.Errorf("%s/%s: failed (both ways): %s", sn.file, sn.name, a)
		case ours.OK && len(ours.Result) == 0:
			t.Errorf("%s/%s: ran but returned nothing: %s", sn.file, sn.name, a)
		case ours.OK && strings.HasPrefix(sn.name, "fails:"):
			t.Errorf("%s/%s: meant to fail, but ran: %s", sn.file, sn.name, a)
		default:
			pass++
		}
	}
	t.Logf("TypeScript corpus: %d/%d snippets agree with esbuild", pass, len(snippets))
}
