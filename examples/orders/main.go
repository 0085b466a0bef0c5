// Command orders shows Code Mode doing its main job without an LLM: it
// registers a few order-desk tools, then runs the kind of program a model
// writes (search, parallel calls, a denied payment) and prints each result
// exactly as the model would see it.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	codemode "github.com/interopio/code-mode"
	"github.com/interopio/code-mode/sandbox/sandboxtest"
)

var orders = []map[string]any{
	{"id": "A-1", "customer": "acme", "status": "open", "total": 120.5},
	{"id": "A-2", "customer": "acme", "status": "shipped", "total": 80},
	{"id": "B-1", "customer": "globex", "status": "open", "total": 42},
}

func main() {
	asset, err := os.ReadFile(assetPath())
	if err != nil {
		log.Fatalf("read the QuickJS asset (run `npm ci` first): %v", err)
	}
	cm, err := codemode.New(asset, codemode.Config{
		Timeout:    2 * time.Second, // the last program loops forever
		ToolFilter: func(t codemode.ToolInfo) bool { return !strings.HasPrefix(t.Name, "admin.") },
		OnToolCall: func(ctx context.Context, c codemode.ToolCall) (codemode.Decision, error) {
			if c.Tool.Name == "payments.transfer" {
				return codemode.Decision{Allowed: false, Reason: "Transfers require manual approval."}, nil
			}
			return codemode.Decision{Allowed: true}, nil
		},
		Tools: []codemode.Tool{
			{
				Name:        "orders.list",
				Description: "List orders, optionally by status.",
				InputSchema: json.RawMessage(`{"type":"object","properties":{"status":{"type":"string","enum":["open","shipped"]}}}`),
				Execute: func(ctx context.Context, in json.RawMessage, call codemode.Call) (json.RawMessage, error) {
					var q struct{ Status string }
					json.Unmarshal(in, &q)
					var out []map[string]any
					for _, o := range orders {
						if q.Status == "" || o["status"] == q.Status {
							out = append(out, o)
						}
					}
					return json.Marshal(out)
				},
			},
			{
				Name:        "customers.get",
				Description: "Get a customer by id.",
				InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`),
				Execute: func(ctx context.Context, in json.RawMessage, call codemode.Call) (json.RawMessage, error) {
					var q struct{ ID string }
					json.Unmarshal(in, &q)
					return json.Marshal(map[string]any{"id": q.ID, "name": strings.ToUpper(q.ID) + " Corp", "askedBy": call.Context})
				},
			},
			{
				Name:        "payments.transfer",
				Description: "Transfer money to an account.",
				Execute: func(ctx context.Context, in json.RawMessage, call codemode.Call) (json.RawMessage, error) {
					return json.RawMessage(`"sent"`), nil
				},
			},
			{
				Name: "admin.deleteAll",
				Execute: func(ctx context.Context, in json.RawMessage, call codemode.Call) (json.RawMessage, error) {
					return nil, nil
				},
			},
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer cm.Close()
	session, err := cm.NewSession()
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()
	programs := []string{
		`return (await tool_search({ query: "orders by status" })).map(t => t.name)`,
		`const open = await tools.orders.list({ status: "open" });
const customers = await Promise.all(open.map(o => tools.customers.get({ id: o.customer })));
console.log("open orders:", open.length);
return open.map((o, i) => ({ id: o.id, customer: customers[i].name, total: o.total }));`,
		`await tools.payments.transfer({ to: "X", amount: 10 })`,
		`await tool_call("admin.deleteAll", {})`,
		`while (true) {}`,
	}
	for _, code := range programs {
		res, err := session.ExecuteCode(context.Background(), codemode.ExecuteCodeInput{Code: code, Explanation: "example"}, "user-42")
		if err != nil {
			log.Fatal(err)
		}
		out, _ := json.MarshalIndent(res, "  ", "  ")
		fmt.Printf("> %s\n  %s\n\n", strings.ReplaceAll(code, "\n", "\n  "), out)
	}
}

func assetPath() string {
	if p := os.Getenv("QUICKJS_WASM"); p != "" {
		return p
	}
	return sandboxtest.AssetPath
}
