package codemode

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestUndefinedResultWarnings: a program whose result is undefined, or
// lost a property to JSON, hears which expression gave undefined and what
// the tool's result it read has; one that means to return nothing, or
// returns a tool's call, hears nothing.
func TestUndefinedResultWarnings(t *testing.T) {
	list := func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
		return json.RawMessage(`[{"id":"o1","total":5,"created_at":"2026-01-01"}]`), nil
	}
	get := func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
		return json.RawMessage(`{"id":"o1","total":5,"customer":{"name":"Ann"}}`), nil
	}
	none := func(context.Context, json.RawMessage, Call) (json.RawMessage, error) { return nil, nil }
	cm := newTestCodeMode(t, Config{Tools: []Tool{
		{Name: "shop.list", Execute: list},
		{Name: "shop.get", Execute: get},
		{Name: "mail.send", Execute: none},
	}})
	s := mustSession(t, cm)
	const os = "const os = await tools.shop.list({});\n"
	const item = "{ id: string; total: number; created_at: string }"
	for _, tc := range []struct {
		name, code, result string
		warns              []string
	}{
		{"a misspelt property", os + "return os.lenght", "",
			[]string{"the program returned os.lenght, which is undefined, so the run has no result; os holds what tools.shop.list gives, " + item + "[], which has no lenght (did you mean \"length\"?): os is the array itself"}},
		{"a field of an item", os + "return os[0].name", "",
			[]string{"the program returned os[0].name, which is undefined, so the run has no result; os[0] is an item of what tools.shop.list gives, " + item + ", which has no name"}},
		{"camelCase for snake_case", os + "return os[0].createdAt", "",
			[]string{"the program returned os[0].createdAt, which is undefined, so the run has no result; os[0] is an item of what tools.shop.list gives, " + item + ", which has no createdAt (did you mean \"created_at\"?)"}},
		{"a wrapper that is not there", os + "return os.data", "",
			[]string{"the program returned os.data, which is undefined, so the run has no result; os holds what tools.shop.list gives, " + item + "[], which has no data: os is the array itself"}},
		{"destructured", "const { items } = await tools.shop.list({});\nreturn items", "",
			[]string{"the program returned items, which is undefined, so the run has no result; items was destructured from what tools.shop.list gives, " + item + "[], which has no items: it is the array itself, const items = await tools.shop.list(...)"}},
		{"find found nothing", os + "const o = os.find((o) => o.id === 'x');\nreturn o", "",
			[]string{"the program returned o, which is undefined, so the run has no result"}},
		{"a property of the returned object", os + "return { n: os.count }", "{}",
			[]string{"result.n: undefined, so JSON leaves it out; n: os.count; os holds what tools.shop.list gives, " + item + "[], which has no count (did you mean \"length\"?): os is the array itself"}},
		{"camelCase for snake_case, one of several", "const o = await tools.shop.get({ id: 'o1' });\nreturn { total: o.total, when: o.createdAt, name: o.customer_name }", `{"total":5}`,
			[]string{"result.when: undefined, so JSON leaves it out (1 more property is undefined too); when: o.createdAt; o holds what tools.shop.get gives, { id: string; total: number; customer: { name: string } }, which has no createdAt"}},
		{"a shorthand property", "let total\nreturn { total }", "{}",
			[]string{"result.total: undefined, so JSON leaves it out"}},
		{"items mapped", os + "return os.map((o) => ({ id: o.id, when: o.createdAt }))", `[{"id":"o1"}]`,
			[]string{"result[0].when: undefined, so JSON leaves it out"}},
		{"an expression the run knows nothing of", "const m = { a: 1 };\nreturn m.b", "",
			[]string{"the program returned m.b, which is undefined, so the run has no result"}},
		{"no return, a misspelt property last", os + "os.lenght", "",
			[]string{"the program ends with os.lenght, which is undefined, so the run has no result; os holds what tools.shop.list gives, " + item + "[], which has no lenght (did you mean \"length\"?): os is the array itself"}},
		{"no return, a property there last", os + "os.length", "1", nil},
		// A function is of no value too, and the sandbox's note says so.
		{"no return, a function last", "tools.shop.list", "", []string{"result: a function, which is not data: no result (the program's value is a function; to run it, call it: end the program with return f(...), or send its body as the program)"}},
		{"a function returned", "const f = { g() {} };\nreturn f.g", "", []string{"result: a function, which is not data: no result (the program's value is a function; to run it, call it: end the program with return f(...), or send its body as the program)"}},
		{"a call not awaited", "const os = tools.shop.list({});\nreturn os.length", "",
			[]string{"1 call was still pending when the program finished, and cancelled (tool shop.list); await every call", "the program returned os.length, which is undefined, so the run has no result; os holds a Promise: tools.shop.list(...) was not awaited (const os = await tools.shop.list(...))"}},
		{"a call not awaited, in an object", "const os = tools.shop.list({});\nreturn { n: os.length }", "{}",
			[]string{"result.n: undefined, so JSON leaves it out; n: os.length; os holds a Promise: tools.shop.list(...) was not awaited (const os = await tools.shop.list(...))", "1 call was still pending when the program finished, and cancelled (tool shop.list); await every call"}},
		{"a helper whose return was forgotten", "async function totalOf(os) {\n  os.reduce((s, o) => s + o.total, 0);\n}\n" + os + "return await totalOf(os)", "",
			[]string{"the program returned await totalOf(os), which is undefined, so the run has no result; the function totalOf gave undefined: if it computes the answer, give it back with return inside it"}},
		// Programs that mean to return nothing, or whose tool gave nothing.
		{"no return", "await tools.mail.send({ to: 'a' });", "", nil},
		{"a bare return", os + "if (!os.length) return;\nreturn os[0].name", "", nil},
		{"return undefined", "return undefined", "", nil},
		{"a property written undefined", "return { ok: true, note: undefined, n: void 0 }", `{"ok":true}`, []string{"result.note: undefined, so JSON leaves it out (1 more property is undefined too)"}},
		{"the only property written undefined", "return { ok: true, note: undefined }", `{"ok":true}`, nil},
		{"a tool that gives nothing", "return await tools.mail.send({ to: 'a' })", "", nil},
		{"a property there", os + "return { n: os.length }", `{"n":1}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := exec(t, s, tc.code, nil)
			if !res.OK {
				t.Fatalf("error %+v", res.Error)
			}
			if string(res.Result) != tc.result {
				t.Errorf("result %s, want %s", res.Result, tc.result)
			}
			var warns []string
			for _, l := range res.Logs {
				if l.Level == "warn" {
					warns = append(warns, l.Message)
				}
			}
			if strings.Join(warns, "\n") != strings.Join(tc.warns, "\n") {
				t.Errorf("warnings\n%q\nwant\n%q", warns, tc.warns)
			}
		})
	}
}

// literalValue reads what an object literal gives a key; indexedRead a
// name[i].prop.
func TestLiteralValue(t *testing.T) {
	for _, tc := range []struct{ lit, key, want string }{
		{"{ n: os.count }", "n", "os.count"},
		{"{ a: f(1, 2), b: [x, y], c: { d: 1 }, e }", "e", "e"},
		{"{ a: f(1, 2), b: [x, y], c: { d: 1 }, e }", "b", "[x, y]"},
		{"{ a: f(1, 2), b: [x, y], c: { d: 1 }, e }", "d", ""},
		{`{ s: "x, y: 1", y: o.y }`, "y", "o.y"},
		{"{ n: o.n }", "m", ""},
	} {
		if got := literalValue(tc.lit, tc.key); got != tc.want {
			t.Errorf("literalValue(%q, %q) = %q, want %q", tc.lit, tc.key, got, tc.want)
		}
	}
	for _, tc := range []struct {
		expr              string
		base, index, prop string
		ok                bool
	}{
		{"os[0].name", "os", "0", "name", true},
		{"os?.[12]?.name", "os", "12", "name", true},
		{"os[i].name", "", "", "", false},
		{"os[0]", "", "", "", false},
		{"a.b[0].c", "", "", "", false},
	} {
		base, index, prop, ok := indexedRead(tc.expr)
		if base != tc.base || index != tc.index || prop != tc.prop || ok != tc.ok {
			t.Errorf("indexedRead(%q) = %q, %q, %q, %v", tc.expr, base, index, prop, ok)
		}
	}
}

// TestNaNHint: a NaN in the result names the first read of a field that
// the tool's result, or its items, do not have; NaN of another making
// gets no such word.
func TestNaNHint(t *testing.T) {
	list := func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
		return json.RawMessage(`[{"id":"o1","total":5},{"id":"o2","total":7}]`), nil
	}
	get := func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
		return json.RawMessage(`{"id":"o1","total":5}`), nil
	}
	cm := newTestCodeMode(t, Config{Tools: []Tool{{Name: "shop.list", Execute: list}, {Name: "shop.get", Execute: get}}})
	s := mustSession(t, cm)
	const os = "const os = await tools.shop.list({});\n"
	const items = "; NaN comes from arithmetic on undefined: o.amount reads a field that the items of what tools.shop.list gives, { id: string; total: number }, do not have"
	for _, tc := range []struct{ name, code, want string }{
		{"a reduce over a missing field", os + "return { total: os.reduce((s, o) => s + o.amount, 0) }", `result.total: NaN, converted to the string "NaN"` + items},
		{"a for-of loop", os + "let total = 0;\nfor (const o of os) total += o.amount;\nreturn total", `result: NaN, converted to the string "NaN"` + items},
		{"a misspelt length", os + "return os.lenght * 2", `result: NaN, converted to the string "NaN"; NaN comes from arithmetic on undefined: os.lenght reads a field that what tools.shop.list gives, { id: string; total: number }[], does not have (did you mean "length"?)`},
		{"an object's missing field", "const o = await tools.shop.get({});\nreturn o.total * o.rate", `result: NaN, converted to the string "NaN"; NaN comes from arithmetic on undefined: o.rate reads a field that what tools.shop.get gives, { id: string; total: number }, does not have`},
		{"NaN of the program's own making", os + "return os.length / 0 - Infinity", `result: NaN, converted to the string "NaN"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := exec(t, s, tc.code, nil)
			if !res.OK {
				t.Fatalf("error %+v", res.Error)
			}
			var warns []string
			for _, l := range res.Logs {
				if l.Level == "warn" {
					warns = append(warns, l.Message)
				}
			}
			if len(warns) != 1 || warns[0] != tc.want {
				t.Errorf("warnings %q, want [%q]", warns, tc.want)
			}
		})
	}
}

// TestMemberSuggestion: the member a missing name likely meant, only when
// it is written otherwise (case, separators) or one typo away.
func TestMemberSuggestion(t *testing.T) {
	const order = "{ id: string; created_at: string; customerId: string; total: number; lines?: { sku: string }[] }"
	for _, tc := range []struct {
		t, prop string
		array   bool
		want    string
	}{
		{order, "createdAt", false, ` (did you mean "created_at"?)`},
		{order, "customer_id", false, ` (did you mean "customerId"?)`},
		{order, "totl", false, ""}, // short: too many names are one typo away
		{order, "linse", false, ` (did you mean "lines"?)`},
		{order, "sku", false, ""}, // a member of a member
		{order, "amount", false, ""},
		{order + "[]", "count", true, ` (did you mean "length"?)`},
		{order + "[]", "lenght", true, ` (did you mean "length"?)`},
		{order + "[]", "data", true, ""},
		{order + "[]", "at", true, ""},
	} {
		if got := memberSuggestion(tc.t, tc.prop, tc.array); got != tc.want {
			t.Errorf("memberSuggestion(%q) = %q, want %q", tc.prop, got, tc.want)
		}
	}
	if got := strings.Join(typeMembers(order), ","); got != "id,created_at,customerId,total,lines" {
		t.Errorf("typeMembers = %s", got)
	}
}
