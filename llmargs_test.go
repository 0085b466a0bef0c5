package codemode

import (
	"context"
	"encoding/json"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestLLMToolArguments feeds the LLM tools arguments as models send them:
// unambiguous values are coerced, the rest is an ok:false INVALID_INPUT
// result naming the field and the type, never an error and never Go's words.
func TestLLMToolArguments(t *testing.T) {
	cm := newTestCodeMode(t, Config{})
	s := mustSession(t, cm)
	tools := s.LLMTools()
	search, execute := tools[0], tools[1]
	for _, tc := range []struct {
		name string
		tool LLMTool
		args string
		// ok: a result that is not INVALID_INPUT, containing want;
		// otherwise an INVALID_INPUT whose message contains want.
		ok   bool
		want string
	}{
		{"numeric limit string", search, `{"query":"transfer money","limit":"1"}`, true, `"payments.transfer"`},
		{"float limit that is an integer", search, `{"query":"transfer money","limit":1.0}`, true, `"payments.transfer"`},
		{"limit above the maximum is clamped", search, `{"query":"orders","limit":500}`, true, `"orders.search"`},
		{"bare string query", search, `"transfer money"`, true, `"payments.transfer"`},
		{"arguments as JSON text", search, `"{\"query\":\"transfer money\",\"limit\":1}"`, true, `"payments.transfer"`},
		{"null limit is the default", search, `{"query":"orders","limit":null}`, true, `"orders.get"`},
		{"no query lists all", search, `{}`, true, `"orders.get"`},
		{"word limit", search, `{"query":"x","limit":"five"}`, false, `searchTools: limit: expected an integer 1..50, got the string "five"`},
		{"fractional limit", search, `{"query":"x","limit":2.5}`, false, `limit: expected an integer 1..50, got the number 2.5`},
		{"zero limit", search, `{"query":"x","limit":0}`, false, `limit: expected an integer 1..50`},
		{"object query", search, `{"query":{"text":"x"}}`, false, `searchTools: query: expected a string, got an object`},
		{"array arguments", search, `["x"]`, false, `expected the arguments to be an object { query?: string; namespace?: string; limit?: number }, got an array`},
		{"misspelt argument", search, `{"qeury":"x"}`, false, `unknown argument "qeury" (did you mean "query"?)`},
		{"not JSON", search, `{"query":`, false, `searchTools: the arguments are not JSON`},

		{"code and explanation", execute, `{"code":"return 6*7","explanation":"math"}`, true, `"result":42`},
		{"no explanation", execute, `{"code":"return 6*7"}`, true, `"result":42`},
		{"numeric explanation", execute, `{"code":"return 1","explanation":5}`, true, `"result":1`},
		{"bare string is the code", execute, `"return 2+2"`, true, `"result":4`},
		// The arguments as JSON text cut off (a model's token limit) or
		// broken: named as such, not run as a program.
		{"arguments as JSON text cut short", execute, `"{\"code\": \"return 1"`, false, `executeCode: the arguments are JSON text that ends before its object does (cut short?); expected an object { code: string; explanation?: string }`},
		{"arguments as broken JSON text", execute, `"{\"code\": \"return 1\", explanation: 2}"`, false, `executeCode: the arguments are JSON text that does not parse; expected an object { code: string; explanation?: string }`},
		{"a block that starts like JSON is code", execute, `"{\"a\": 1"`, true, `"code":"SYNTAX"`},
		// A comma before the closing brace, and only there, is read past.
		{"arguments as JSON text with a comma before its closing brace", execute, `"{\"code\": \"return 6*7\", \"explanation\": \"x\",\n}"`, true, `"result":42`},
		{"search arguments as JSON text with a comma before its closing brace", search, `"{\"query\":\"transfer money\",\"limit\":1 , }"`, true, `"payments.transfer"`},
		{"a comma and brace inside the code stay the program's", execute, `"{\"code\": \"return ',}'.length\",}"`, true, `"result":2`},
		// The arguments in a markdown fence, as a model in JSON mode writes
		// them: the object inside is read.
		{"arguments as JSON text after a BOM", execute, `"\ufeff{\"code\": \"return 9\"}"`, true, `"result":9`},
		{"arguments as JSON text in a json fence", execute, `"` + "```json\\n{\\\"code\\\": \\\"return 6*7\\\", \\\"explanation\\\": \\\"x\\\"}\\n```" + `"`, true, `"result":42`},
		{"search arguments as JSON text in a bare fence", search, `"` + "```\\n{\\\"query\\\": \\\"transfer money\\\", \\\"limit\\\": \\\"x\\\"}\\n```" + `"`, false, `searchTools: limit: expected an integer 1..50, got the string "x"`},
		{"the code field holding fenced arguments", execute, `{"code": "` + "```json\\n{\\\"code\\\": \\\"return 5\\\"}\\n```" + `"}`, true, `"result":5`},
		{"a js fence is the program", execute, `"` + "```js\\nreturn 3\\n```" + `"`, true, `"result":3`},
		{"a json fence of another object reads as that object", execute, `"` + "```json\\n{\\\"a\\\": 1}\\n```" + `"`, false, `executeCode: code: required; expected a string, got only the keys "a"`},
		{"two commas before the brace still do not parse", execute, `"{\"code\": \"return 1\",,}"`, false, `executeCode: the arguments are JSON text that does not parse; expected`},
		// Before a nested closing bracket or brace too, as handleToolCall reads them.
		{"a comma before a nested closing bracket and brace", execute, `"{\"code\": \"return 6*7\", \"tags\": [\"a\", {\"b\": 1,},\n ],}"`, true, `"result":42`},
		{"search arguments with a comma before a nested bracket", search, `"{\"query\":\"transfer money\",\"limit\":1,\"x\":[1,]}"`, true, `"payments.transfer"`},
		{"a comma and bracket inside the code, after an escaped quote, stay the program's", execute, `"{\"code\": \"return '\\\",]'.length\",}"`, true, `"result":3`},
		{"two commas before a nested bracket still do not parse", execute, `"{\"code\": \"return 1\", \"x\": [1,,],}"`, false, `executeCode: the arguments are JSON text that does not parse; expected`},
		// Several calls in one call's arguments: the first ran alone and
		// the others were dropped without a word.
		{"two argument objects as JSON text", execute, `"{\"code\": \"return 1\"}\n{\"code\": \"return 2\"}"`, false, `executeCode: the arguments are JSON text that goes on after its object (several calls in one?); expected an object { code: string; explanation?: string }`},
		{"two argument objects", execute, `{"code": "return 1"} {"code": "return 2"}`, false, `executeCode: the arguments are JSON text that goes on after its object (several calls in one?); expected one object { code: string; explanation?: string }`},
		{"an argument object and more text", search, `{"query": "orders"} and more`, false, `searchTools: the arguments are JSON text that goes on after its object`},
		{"two search argument objects as JSON text", search, `"{\"query\": \"orders\"}{\"query\": \"payments\"}"`, false, `searchTools: the arguments are JSON text that goes on after its object (several calls in one?)`},
		// The arguments written as JavaScript writes an object: it ran as
		// a block whose value is the code's text ({code: "return 1"} gave
		// ok: true, result "return 1"), or a syntax error about a block.
		{"arguments with an unquoted key", execute, `"{code: \"return 1\"}"`, false, `executeCode: the arguments are JSON text that does not parse (JSON writes keys and strings in double quotes); expected an object { code: string; explanation?: string }`},
		{"arguments in single quotes (a Python dict) run", execute, `"{'code': 'return 1', 'explanation': 'x'}"`, true, `"result":1`},
		{"arguments in single quotes, a key unquoted", execute, `"{'code': 'return 1', explanation: 'x'}"`, false, `executeCode: the arguments are JSON text that does not parse`},
		{"search arguments with an unquoted key", search, `"{ query: 'orders', limit: 5 }"`, false, `searchTools: the arguments are JSON text that does not parse (JSON writes keys and strings in double quotes)`},
		{"a block with a label of another name is code", execute, `"{ total: 1 }\nreturn 2"`, true, `"result":2`},
		{"search arguments cut short", search, `"{\"query\": \"ord"`, false, `searchTools: the arguments are JSON text that ends before its object does (cut short?)`},
		{"missing code", execute, `{}`, false, `executeCode: code: required; expected a string, got no arguments (clients drop arguments that are not valid JSON): send one JSON object { code: string; explanation?: string }`},
		{"arguments as JSON text of an empty object", execute, `"{}"`, false, `executeCode: code: required; expected a string, got no arguments`},
		{"no arguments at all", execute, ``, false, `executeCode: code: required; expected a string, got no arguments (clients drop arguments that are not valid JSON): send one JSON object { code: string; explanation?: string }`},
		{"null arguments", execute, `null`, false, `executeCode: code: required; expected a string, got no arguments (clients drop arguments that are not valid JSON): send one JSON object { code: string; explanation?: string }`},
		{"null code", execute, `{"code":null,"explanation":"x"}`, false, `code: required`},
		{"empty code", execute, `{"code":"  ","explanation":"x"}`, false, `code: required; expected a non-empty string`},
		{"numeric code", execute, `{"code":42}`, false, `executeCode: code: expected a string, got the number 42`},
		{"array code", execute, `{"code":["return 1"]}`, false, `executeCode: code: expected a string, got an array`},
		// Keys executeCode does not take are ignored beside code (they
		// change nothing a run does); without code, they are named.
		{"extra arguments beside code", execute, `{"code":"return 1","explanation":"x","language":"javascript","timeout":5000}`, true, `"result":1`},
		{"misspelt code", execute, `{"cod":"return 1","explanation":"x"}`, false, `executeCode: unknown argument "cod" (did you mean "code"?); expected { code: string; explanation?: string }`},
		{"code named script", execute, `{"script":"return 1"}`, false, `executeCode: unknown argument "script" (did you mean "code"?)`},
		{"code named javascript", execute, `{"explanation":"x","javascript":"return 1"}`, false, `executeCode: unknown argument "javascript" (did you mean "code"?)`},
		{"no code, other keys", execute, `{"explanation":"x","lang":"js"}`, false, `executeCode: code: required; expected a string, got only the keys "explanation", "lang" (the arguments are { code: string; explanation?: string })`},
		// Several calls in one list of a template's markup: a list the program would give back.
		{"two calls in one LFM2 list", execute, `{"code":"<|tool_call_start|>[{\"name\": \"executeCode\", \"arguments\": {\"code\": \"return 1\"}}, {\"name\": \"executeCode\", \"arguments\": {\"code\": \"return 2\"}}]<|tool_call_end|>"}`, false, `executeCode: several calls in one list: the code is wrapped in tool-call markup (<tool_call>, <function=...>, <invoke ...>), which is not JavaScript; send only the program, as executeCode's code, one call at a time`},
		{"one call in an LFM2 list runs", execute, `{"code":"<|tool_call_start|>[{\"name\": \"executeCode\", \"arguments\": {\"code\": \"return 1\"}}]<|tool_call_end|>"}`, true, `"result":1`},
		// Session 46: FunctionGemma's call:name{k:<escape>v<escape>} (a
		// SYNTAX error: "expecting ';'").
		{"code in FunctionGemma's markup", execute, `{"code":` + strconv.Quote(`<start_function_call>call:executeCode{code:<escape>const a = {b: 6};
return a.b * 7;<escape>,explanation:<escape>x, y<escape>}<end_function_call>`) + `}`, true, `"result":42`},
		{"search arguments in FunctionGemma's markup", search, strconv.Quote(`<start_function_call>call:searchTools{query:<escape>transfer money<escape>}<end_function_call>`), true, `"payments.transfer"`},
		{"FunctionGemma's markup without its end token", execute, `{"code":` + strconv.Quote(`<start_function_call>call:executeCode{code:<escape>return 6*7<escape>}`) + `}`, true, `"result":42`},
		{"FunctionGemma's markup of two calls is named", execute, `{"code":` + strconv.Quote(`<start_function_call>call:executeCode{code:<escape>return 1<escape>}<end_function_call><start_function_call>call:executeCode{code:<escape>return 2<escape>}<end_function_call>`) + `}`, true, `the code is wrapped in tool-call markup`},
		// Session 46: xLAM's {"tool_calls": [...]} and a bare JSON list of
		// calls as the code (a SYNTAX error, and the list as the result).
		{"xLAM's tool_calls of one call runs", execute, `{"code":"{\"tool_calls\": [{\"name\": \"executeCode\", \"arguments\": {\"code\": \"return 6*7\"}}]}"}`, true, `"result":42`},
		{"a bare list of one call runs", execute, `{"code":"[{\"name\": \"executeCode\", \"arguments\": {\"code\": \"return 6*7\", \"explanation\": \"x\"}}]"}`, true, `"result":42`},
		{"a bare list of one OpenAI call, arguments as text, runs", execute, `{"code":"[{\"type\": \"function\", \"function\": {\"name\": \"executeCode\", \"arguments\": \"{\\\"code\\\": \\\"return 6*7\\\"}\"}}]"}`, true, `"result":42`},
		{"a bare list of one search call", search, `{"query":"[{\"name\": \"searchTools\", \"arguments\": {\"query\": \"transfer money\"}}]"}`, true, `"payments.transfer"`},
		{"xLAM's tool_calls of two calls", execute, `{"code":"{\"tool_calls\": [{\"name\": \"executeCode\", \"arguments\": {\"code\": \"return 1\"}}, {\"name\": \"executeCode\", \"arguments\": {\"code\": \"return 2\"}}]}"}`, false, `executeCode: several calls in one list: the code is wrapped in tool-call markup`},
		{"a bare list of two calls", execute, `{"code":"[{\"name\": \"executeCode\", \"arguments\": {\"code\": \"return 1\"}}, {\"name\": \"executeCode\", \"arguments\": {\"code\": \"return 2\"}}]"}`, false, `executeCode: several calls in one list`},
		{"a list of another tool's call is the program's value", execute, `{"code":"[{\"name\": \"orders.get\", \"arguments\": {\"id\": \"o-1\"}}]"}`, true, `"result":[{"name":"orders.get","arguments":{"id":"o-1"}}]`},
		{"a list of calls among other values is the program's value", execute, `{"code":"[{\"name\": \"executeCode\", \"arguments\": {\"code\": \"return 1\"}}, 2]"}`, true, `"result":[{`},
		{"a program that names executeCode twice runs", execute, `{"code":"return [\"executeCode\", \"executeCode\"].length"}`, true, `"result":2`},
		// The other LLM tool's arguments: which tool takes them.
		{"search arguments sent to executeCode", execute, `{"query":"refund","limit":3}`, false, `executeCode: unknown argument "query", which searchTools takes: call searchTools with it (executeCode takes { code: string; explanation?: string })`},
		{"a program sent to searchTools", search, `{"code":"return 1","explanation":"x"}`, false, `searchTools: unknown argument "code", which executeCode takes: call executeCode with it (searchTools takes { query?: string; namespace?: string; limit?: number })`},
		{"null code beside an extra key", execute, `{"code":null,"language":"js"}`, false, `executeCode: code: required; expected a string`},
		{"extra argument beside query", search, `{"query":"transfer money","limit":1,"language":"en"}`, true, `"payments.transfer"`},
		{"query named q", search, `{"q":"transfer money"}`, true, `"payments.transfer"`},
		{"query named search", search, `{"search":"transfer money","limit":"5"}`, true, `"payments.transfer"`},
		{"query named keywords", search, `{"keywords":["transfer","money"]}`, true, `"payments.transfer"`},
		{"query and q", search, `{"query":"orders","q":"transfer money"}`, false, `searchTools: both query and "q" were given; send one query`},
		{"query named text stays an error", search, `{"text":"x"}`, false, `searchTools: unknown argument "text" (did you mean "query"?)`},
		{"no query, an unknown key", search, `{"namespace":"orders","foo":1}`, false, `searchTools: unknown argument "foo"; expected { query?: string; namespace?: string; limit?: number }`},
		// Models (and hosts) encode the arguments twice, or send the
		// arguments object as the code: a program that is only a string
		// literal or a JSON object does nothing, so reading the arguments in
		// it loses no program. It ran as a string literal (ok: true, the
		// arguments back as the result) or was a SYNTAX error telling the
		// model to return its own arguments.
		{"arguments encoded twice", execute, `"\"{\\\"code\\\":\\\"return 6*7\\\"}\""`, true, `"result":42`},
		{"arguments as the code", execute, `{"code":"{\"code\":\"return 6*7\",\"explanation\":\"math\"}"}`, true, `"result":42`},
		{"arguments as the code, explanation outside", execute, `{"code":"{\"code\":\"return 6*7\"}","explanation":"math"}`, true, `"result":42`},
		{"search arguments encoded twice", search, `"\"{\\\"query\\\":\\\"transfer money\\\",\\\"limit\\\":1}\""`, true, `"payments.transfer"`},
		{"search arguments as the query", search, `{"query":"{\"query\":\"transfer money\",\"limit\":1}"}`, true, `"payments.transfer"`},
		{"a JSON object code that is not the arguments", execute, `{"code":"{\"a\":1}"}`, true, `the code is a JSON object, not a program`},
		{"a string literal program stays one", execute, `{"code":"\"return 1\""}`, true, `"result":"return 1"`},
		// A program of several statements encoded so returned its own text,
		// ok: it is the SYNTAX error of code escaped twice.
		{"a string literal holding a program", execute, `{"code":"\"const n = 6*7;\\nreturn n\"","explanation":"x"}`, true, `"code":"SYNTAX"`},
		// Session 32: the arguments inside the bare field as an object, a
		// query as a list of keywords, a query that is a number.
		{"arguments as the code, an object", execute, `{"code":{"code":"return 6*7","explanation":"math"}}`, true, `"result":42`},
		{"search arguments as the query, an object", search, `{"query":{"query":"transfer money","limit":1}}`, true, `"payments.transfer"`},
		{"an object code that is not the arguments", execute, `{"code":{"source":"return 1"}}`, false, `executeCode: code: expected a string, got an object`},
		{"a query of keywords", search, `{"query":["transfer","money"],"limit":1}`, true, `"payments.transfer"`},
		{"a query of keywords and a number", search, `{"query":["transfer",5]}`, false, `searchTools: query: expected a string (or an array of words), got an array`},
		{"an empty list query", search, `{"query":[]}`, false, `searchTools: query: expected a string (or an array of words), got an array`},
		{"a number query that matches nothing", search, `{"query":5}`, false, `searchTools: query: expected a string of words saying what the tool does ("refund an order"), got the number 5, which matches no tool`},
		{"a boolean query", search, `{"query":true}`, false, `searchTools: query: expected a string of words saying what the tool does ("refund an order"), got the boolean true, which matches no tool`},
		{"a string query that matches nothing is an empty list", search, `{"query":"zzqx"}`, true, `[]`},
		{"a number namespace is a namespace's name", search, `{"namespace":5}`, false, `searchTools: namespace: there is no namespace "5"`},
		{"inner arguments are checked", execute, `{"code":"{\"code\":5}"}`, false, `executeCode: code: expected a string, got the number 5`},
		// encoding/json's decoder recursed once per level, on the page's
		// stack under GOOS=js: 6,000 levels ended the engine.
		{"arguments nested 6,000 levels", execute, `{"code":"return 1","x":` + strings.Repeat("[", 6000) + strings.Repeat("]", 6000) + `}`, false,
			`executeCode: the arguments are JSON that nests more than 1,000 levels deep; expected an object { code: string; explanation?: string }`},
		{"search arguments nested 6,000 levels", search, `{"query":"x","x":` + strings.Repeat("[", 6000) + strings.Repeat("]", 6000) + `}`, false,
			`searchTools: the arguments are JSON that nests more than 1,000 levels deep`},
		{"arguments as JSON text nested 6,000 levels", execute, strconv.Quote(`{"code":"return 1","x":` + strings.Repeat("[", 6000) + strings.Repeat("]", 6000) + `}`), false,
			`executeCode: the arguments are JSON text that nests more than 1,000 levels deep`},
		// Session 40: the code as a model's tool-call markup around the
		// call's arguments (it was a SYNTAX error naming the markup): one
		// executeCode call runs; several, or another tool's, are named.
		{"code in <tool_call> markup", execute, `{"code":` + strconv.Quote("<tool_call>\n{\"name\": \"executeCode\", \"arguments\": {\"code\": \"return 6*7\"}}\n</tool_call>") + `}`, true, `"result":42`},
		{"code in <tool_call> markup, arguments as JSON text", execute, strconv.Quote(`<tool_call>{"name":"executeCode","arguments":"{\"code\":\"return 6*7\"}"}</tool_call>`), true, `"result":42`},
		{"code in <function=...> markup", execute, `{"code":` + strconv.Quote(`<function=executeCode>{"code": "return 6*7"}</function>`) + `}`, true, `"result":42`},
		{"code in <invoke> markup", execute, `{"code":` + strconv.Quote("<function_calls>\n<invoke name=\"executeCode\">\n<parameter name=\"code\">const a = 6;\nreturn a < 7 && a * 7;</parameter>\n</invoke>\n</function_calls>") + `}`, true, `"result":42`},
		{"two calls in markup", execute, `{"code":` + strconv.Quote(`<tool_call>{"name":"executeCode","arguments":{"code":"return 1"}}</tool_call><tool_call>{"name":"executeCode","arguments":{"code":"return 2"}}</tool_call>`) + `}`, true, `the code is wrapped in tool-call markup`},
		{"two calls in markup, on lines of their own", execute, `{"code":` + strconv.Quote("<tool_call>\n{\"name\":\"executeCode\",\"arguments\":{\"code\":\"return 1\"}}\n</tool_call>\n<tool_call>\n{\"name\":\"executeCode\",\"arguments\":{\"code\":\"return 2\"}}\n</tool_call>") + `}`, true, `the code is wrapped in tool-call markup`},
		{"two invokes", execute, `{"code":` + strconv.Quote("<invoke name=\"executeCode\">\n<parameter name=\"code\">return 1</parameter>\n</invoke>\n<invoke name=\"executeCode\">\n<parameter name=\"code\">return 2</parameter>\n</invoke>") + `}`, true, `the code is wrapped in tool-call markup`},
		{"another tool's call in markup", execute, `{"code":` + strconv.Quote(`<tool_call>{"name":"searchTools","arguments":{"query":"orders"}}</tool_call>`) + `}`, true, `(search with searchTools, or with tool_search(...) in the program)`},
		{"search arguments in markup", search, `{"query":` + strconv.Quote(`<function=searchTools>{"query": "transfer money", "limit": 1}</function>`) + `}`, true, `"payments.transfer"`},
		{"markup without its closing tag (a stop sequence)", execute, `{"code":` + strconv.Quote("<tool_call>\n{\"name\":\"executeCode\",\"arguments\":{\"code\":\"return 6*7\"}}\n") + `}`, true, `"result":42`},
		{"markup around arguments cut short stays code", execute, `{"code":` + strconv.Quote("<tool_call>\n{\"name\":\"executeCode\",\"arguments\":{\"code\":\"return 1") + `}`, true, `the code is wrapped in tool-call markup`},
		{"arguments nested 1,000 levels", execute, `{"code":"return 1","x":` + strings.Repeat("[", 999) + strings.Repeat("]", 999) + `}`, true, `"result":1`},
		// Session 42: other templates' markup of one executeCode call.
		{"code in Mistral's [TOOL_CALLS]", execute, `{"code":` + strconv.Quote(`[TOOL_CALLS][{"name": "executeCode", "arguments": {"code": "return 6*7"}}]`) + `}`, true, `"result":42`},
		{"code in Mistral's [TOOL_CALLS]name[ARGS]", execute, `{"code":` + strconv.Quote(`[TOOL_CALLS]executeCode[ARGS]{"code": "return 6*7"}`) + `}`, true, `"result":42`},
		{"code in gpt-oss's harmony markup", execute, `{"code":` + strconv.Quote(`<|channel|>commentary to=functions.executeCode <|constrain|>json<|message|>{"code":"return 6*7"}<|call|>`) + `}`, true, `"result":42`},
		{"code in Kimi's markup", execute, `{"code":` + strconv.Quote(`<|tool_calls_section_begin|><|tool_call_begin|>functions.executeCode:0<|tool_call_argument_begin|>{"code": "return 6*7"}<|tool_call_end|><|tool_calls_section_end|>`) + `}`, true, `"result":42`},
		{"code in DeepSeek's markup", execute, `{"code":` + strconv.Quote("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>executeCode\n```json\n{\"code\": \"return 6*7\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>") + `}`, true, `"result":42`},
		// Session 43: GLM's and Qwen3-Coder's markup of one call (GLM's was named).
		{"code in GLM's arg_key markup", execute, `{"code":` + strconv.Quote("<tool_call>executeCode\n<arg_key>code</arg_key>\n<arg_value>const a = 6;\nreturn a < 7 && a * 7;</arg_value>\n<arg_key>explanation</arg_key>\n<arg_value>x</arg_value>\n</tool_call>") + `}`, true, `"result":42`},
		{"search arguments in GLM's markup", search, strconv.Quote("<tool_call>searchTools\n<arg_key>query</arg_key>\n<arg_value>transfer money</arg_value>\n<arg_key>limit</arg_key>\n<arg_value>1</arg_value>\n</tool_call>"), true, `"payments.transfer"`},
		{"GLM's markup of two calls is named", execute, `{"code":` + strconv.Quote("<tool_call>executeCode\n<arg_key>code</arg_key>\n<arg_value>return 1</arg_value>\n</tool_call>\n<tool_call>executeCode\n<arg_key>code</arg_key>\n<arg_value>return 2</arg_value>\n</tool_call>") + `}`, true, `the code is wrapped in tool-call markup`},
		{"code in Qwen3-Coder's parameter markup", execute, strconv.Quote("<tool_call>\n<function=executeCode>\n<parameter=code>\nreturn 6*7\n</parameter>\n</function>\n</tool_call>"), true, `"result":42`},
		{"Qwen3-Coder's markup of another tool is named", execute, `{"code":` + strconv.Quote("<function=searchTools>\n<parameter=query>\nx\n</parameter>\n</function>") + `}`, true, `the code is wrapped in tool-call markup`},
		// A Python dict's repr, and JSON with Python's literals.
		{"arguments as a Python dict", execute, strconv.Quote(`{'code': 'return "it\'s".length', 'explanation': None}`), true, `"result":4`},
		{"JSON text with True and None", search, strconv.Quote(`{"query": "transfer money", "limit": 1, "namespace": None, "exact": True}`), true, `"payments.transfer"`},
		{"Python words inside strings stay", execute, strconv.Quote(`{"code": "return 'None True'", "explanation": False}`), true, `"result":"None True"`},
		// Several calls' arguments in an array of text, which ran as the program.
		{"an array of calls' arguments as text", execute, strconv.Quote(`[{"code": "return 1"}, {"code": "return 2"}]`), false, `executeCode: expected the arguments to be an object { code: string; explanation?: string }, got an array`},
		{"an array literal program runs", execute, strconv.Quote(`[{"a": 1}]`), true, `"result":[{"a":1}]`},
		{"LangChain's __arg1", execute, `{"__arg1":"return 6*7"}`, true, `"result":42`},
		// LlamaIndex's agents hand a tool the arguments they could not parse as { rawInput }.
		{"LlamaIndex's rawInput, a bare program", execute, `{"rawInput":"return 6*7"}`, true, `"result":42`},
		{"LlamaIndex's rawInput, JSON with a comma before its brace", execute, `{"rawInput":"{\"code\": \"return 6*7\",}"}`, true, `"result":42`},
		{"LlamaIndex's rawInput, a search's words", search, `{"rawInput":"transfer money"}`, true, `"payments.transfer"`},
		{"rawInput beside code is ignored", execute, `{"code":"return 1","rawInput":"return 2"}`, true, `"result":1`},
		{"asking for every tool in words lists them", search, `{"query":"What tools are available? List all tools"}`, true, `"payments.transfer"`},
		{"a word of a tool beside them searches", search, `{"query":"list all order tools"}`, true, `[{"name":"orders.`},
		{"two calls in Mistral's markup", execute, `{"code":` + strconv.Quote(`[TOOL_CALLS][{"name": "executeCode", "arguments": {"code": "return 1"}}, {"name": "executeCode", "arguments": {"code": "return 2"}}]`) + `}`, true, `[TOOL_CALLS] is tool-call markup; send only the program`},
		{"two calls in Kimi's markup", execute, `{"code":` + strconv.Quote(`<|tool_call_begin|>functions.executeCode:0<|tool_call_argument_begin|>{"code": "return 1"}<|tool_call_end|><|tool_call_begin|>functions.executeCode:1<|tool_call_argument_begin|>{"code": "return 2"}<|tool_call_end|>`) + `}`, true, `the code is wrapped in tool-call markup`},
		// Session 44: a call's JSON after other templates' tokens or words
		// (jsonCall), Functionary's, Qwen-Agent's and ReAct's (they were
		// SYNTAX errors, or ran as an array literal giving the call back).
		{"code in Command R7B's START_ACTION", execute, `{"code":` + strconv.Quote(`<|START_THINKING|>x.<|END_THINKING|><|START_ACTION|>[{"tool_call_id": "0", "tool_name": "executeCode", "parameters": {"code": "return 6*7"}}]<|END_ACTION|>`) + `}`, true, `"result":42`},
		{"code in LFM2's list of one call", execute, `{"code":` + strconv.Quote(`<|tool_call_start|>[{"name": "executeCode", "arguments": {"code": "return 6*7"}}]<|tool_call_end|>`) + `}`, true, `"result":42`},
		{"code in Apertus's short form", execute, `{"code":` + strconv.Quote(`<|tools_prefix|>[{"executeCode": {"code": "return 6*7"}}]<|tools_suffix|>`) + `}`, true, `"result":42`},
		{"code in Cohere's Action json fence", execute, `{"code":` + strconv.Quote("Action: ```json\n[{\"tool_name\": \"executeCode\", \"parameters\": {\"code\": \"return 6*7\"}}]\n```") + `}`, true, `"result":42`},
		{"code after Functionary's >>>name", execute, `{"code":` + strconv.Quote(">>>executeCode\n{\"code\": \"return 6*7\"}") + `}`, true, `"result":42`},
		{"code as ReAct's Action Input", execute, `{"code":` + strconv.Quote("Thought: multiply.\nAction: executeCode\nAction Input: return 6*7;") + `}`, true, `"result":42`},
		{"search query as ReAct's Action Input", search, strconv.Quote("Action: searchTools\nAction Input: transfer money"), true, `"payments.transfer"`},
		{"another tool's call in a list stays the program's", execute, `{"code":` + strconv.Quote(`<|tool_call_start|>[{"name": "searchTools", "arguments": {"code": "return 1"}}]<|tool_call_end|>`) + `}`, true, `"name":"searchTools"`},
		{"a program returning a call's JSON runs as written", execute, `{"code":` + strconv.Quote(`return [{"name": "executeCode", "arguments": {"code": "return 1"}}]`) + `}`, true, `"result":[{"name":"executeCode","arguments":{"code":"return 1"}}]`},
		// Session 43: a name that only holds the tool's (executeCode2, my_executeCode) is another tool's call.
		{"Mistral's markup of executeCode2", execute, `{"code":` + strconv.Quote(`[TOOL_CALLS]executeCode2[ARGS]{"code": "return 1"}`) + `}`, true, `the code is wrapped in tool-call markup`},
		{"Kimi's markup of my_executeCode", execute, `{"code":` + strconv.Quote(`<|tool_call_begin|>functions.my_executeCode:0<|tool_call_argument_begin|>{"code": "return 1"}<|tool_call_end|>`) + `}`, true, `the code is wrapped in tool-call markup`},
		{"Mistral's markup of searchTools whose arguments name executeCode", execute, `{"code":` + strconv.Quote(`[TOOL_CALLS][{"name":"searchTools","arguments":{"query":"executeCode","o":{"code":"return 1"}}}]`) + `}`, true, `[TOOL_CALLS] is tool-call markup; send only the program`},
		{"Kimi's markup of searchTools whose arguments name executeCode", execute, `{"code":` + strconv.Quote(`<|tool_call_begin|>functions.searchTools:0<|tool_call_argument_begin|>{"query":"executeCode","o":{"code":"return 1"}}<|tool_call_end|>`) + `}`, true, `the code is wrapped in tool-call markup`},
		{"Mistral's markup of searchTools[ARGS] whose arguments name executeCode", execute, `{"code":` + strconv.Quote(`[TOOL_CALLS]searchTools[ARGS]{"query":"executeCode","o":{"code":"return 1"}}`) + `}`, true, `tool-call markup`},
		{"Mistral's list of a call of searchTools with a field naming executeCode", execute, `{"code":` + strconv.Quote(`[TOOL_CALLS][{"name":"searchTools","note":"executeCode","arguments":{"code":"return 1"}}]`) + `}`, true, `[TOOL_CALLS] is tool-call markup; send only the program`},
		{"Mistral's list, arguments as JSON text", execute, `{"code":` + strconv.Quote(`[TOOL_CALLS][{"name":"executeCode","arguments":"{\"code\":\"return 6*7\"}"}]`) + `}`, true, `"result":42`},
		{"harmony markup of another tool", execute, `{"code":` + strconv.Quote(`<|channel|>commentary to=functions.searchTools <|message|>{"query":"x"}<|call|>`) + `}`, true, `the code is wrapped in tool-call markup`},
		// JSON text with comments (JSONC), and arguments encoded three times.
		{"arguments as JSON text with a // comment", execute, strconv.Quote("{\n  // the program\n  \"code\": \"return 6*7\"\n}"), true, `"result":42`},
		{"search arguments as JSON text with a /* */ comment", search, strconv.Quote(`{"query": "transfer money" /* the tool */, "limit": 1}`), true, `"payments.transfer"`},
		{"comment marks inside the code stay the program's", execute, strconv.Quote(`{"code": "return '//x/*'.length", /* c */}`), true, `"result":5`},
		{"an unclosed /* does not parse", execute, strconv.Quote(`{"code": "return 1" /* c}`), false, `executeCode: the arguments are JSON text that does not parse`},
		{"arguments encoded three times", execute, strconv.Quote(strconv.Quote(`{"code":"return 6*7"}`)), true, `"result":42`},
		// The call's envelope: the arguments inside it, unless it names the other tool.
		{"search envelope", search, `{"name":"searchTools","arguments":{"query":"transfer money","limit":1}}`, true, `"payments.transfer"`},
		{"execute envelope as OpenAI's function object", execute, `{"function":{"name":"executeCode","arguments":"{\"code\":\"return 6*7\"}"}}`, true, `"result":42`},
		{"execute envelope of parameters", execute, `{"name":"executeCode","parameters":{"code":"return 6*7"}}`, true, `"result":42`},
		{"an envelope naming the other tool", execute, `{"name":"searchTools","arguments":{"query":"x"}}`, false, `executeCode: code: required`},
		// A tool's name under name, tool, id or names: a search for it.
		{"search by name", search, `{"name":"payments.transfer"}`, true, `[{"name":"payments.transfer"`},
		{"search by tool", search, `{"tool":"payments.transfer","limit":1}`, true, `[{"name":"payments.transfer"`},
		{"search by tool_name", search, `{"tool_name":"payments.transfer","limit":1}`, true, `[{"name":"payments.transfer"`},
		{"search by id", search, `{"id":"payments.transfer","limit":1}`, true, `[{"name":"payments.transfer"`},
		{"search by names", search, `{"names":["payments.transfer","orders.get"]}`, true, `"orders.get"`},
		{"name beside a query is ignored", search, `{"query":"transfer money","name":"zzqx","limit":1}`, true, `[{"name":"payments.transfer"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := tc.tool.Execute(context.Background(), json.RawMessage(tc.args), nil)
			if err != nil {
				t.Fatalf("error %v; arguments must never make an error", err)
			}
			var res struct {
				OK    *bool
				Error *RunError
			}
			json.Unmarshal(out, &res)
			if strings.Contains(string(out), "json:") || strings.Contains(string(out), "unmarshal") {
				t.Errorf("Go's words reached the model: %s", out)
			}
			invalid := res.Error != nil && res.Error.Code == ErrorCodeInvalidInput
			switch {
			case tc.ok && invalid:
				t.Errorf("got INVALID_INPUT %s", out)
			case tc.ok && !strings.Contains(string(out), tc.want):
				t.Errorf("got %s, want it to contain %s", out, tc.want)
			case !tc.ok && (!invalid || res.OK == nil || *res.OK || res.Error.Name != "TypeError"):
				t.Errorf("got %s, want an ok:false INVALID_INPUT TypeError", out)
			case !tc.ok && !strings.Contains(res.Error.Message, tc.want):
				t.Errorf("message %q, want it to contain %q", res.Error.Message, tc.want)
			}
		})
	}
}

// TestToolSearchArguments: tool_search inside the sandbox coerces the same
// way and throws a TypeError naming the field otherwise.
func TestToolSearchArguments(t *testing.T) {
	cm := newTestCodeMode(t, Config{})
	s := mustSession(t, cm)
	for _, tc := range []struct{ code, want string }{
		{`return (await tool_search({query: "transfer money", limit: "1"})).map(h => h.name)`, `["payments.transfer"]`},
		{`return (await tool_search("transfer money")).length > 0`, `true`},
		// Options beside a query string count: the limit was ignored.
		{`return [(await tool_search("orders")).length > 1, (await tool_search("orders", { limit: 1 })).length]`, `[true,1]`},
		// A number beside the query string is the limit: it was ignored.
		{`return [(await tool_search("orders", 1)).length, (await tool_search("orders", { limit: "2.0" })).length]`, `[1,2]`},
		{`try { await tool_search("x", 0) } catch (e) { return e.name + ": " + e.message }`,
			`"TypeError: tool_search: limit: expected an integer 1..50, got the number 0"`},
		// The limit as other search APIs name it: it was ignored.
		{`return [(await tool_search({ query: "orders", top_k: 1 })).length, (await tool_search({ query: "orders", max_results: "1" })).length]`, `[1,1]`},
		{`try { await tool_search({ query: "x", topK: 0 }) } catch (e) { return e.name + ": " + e.message }`,
			`"TypeError: tool_search: limit: expected an integer 1..50, got the number 0"`},
		{`try { await tool_search("x", { limit: 0 }) } catch (e) { return e.name + ": " + e.message }`,
			`"TypeError: tool_search: limit: expected an integer 1..50, got the number 0"`},
		{`return (await tool_search("transfer money", { query: "other" })).map(h => h.name)[0]`, `"payments.transfer"`},
		{`return (await tool_search({query: "transfer money", limit: 1, type: "tool"})).map(h => h.name)`, `["payments.transfer"]`},
		{`return (await tool_search({q: "transfer money"})).map(h => h.name)[0]`, `"payments.transfer"`},
		{`try { await tool_search({qery: "x"}) } catch (e) { return e.name + ": " + e.message }`,
			`"TypeError: tool_search: unknown argument \"qery\" (did you mean \"query\"?); expected { query?: string; namespace?: string; limit?: number }"`},
		{`try { await tool_search({query: "x", limit: "lots"}) } catch (e) { return e.name + ": " + e.message }`,
			`"TypeError: tool_search: limit: expected an integer 1..50, got the string \"lots\""`},
		// The same as searchTools: keywords, the arguments inside query,
		// and a number query that matches nothing.
		{`return (await tool_search({query: ["transfer", "money"], limit: 1})).map(h => h.name)`, `["payments.transfer"]`},
		{`return (await tool_search({query: {query: "transfer money", limit: 1}})).map(h => h.name)`, `["payments.transfer"]`},
		{`try { await tool_search({query: 5}) } catch (e) { return e.name + ": " + e.message }`,
			`"TypeError: tool_search: query: expected a string of words saying what the tool does (\"refund an order\"), got the number 5, which matches no tool"`},
		{`try { await tool_search({query: [1]}) } catch (e) { return e.name + ": " + e.message }`,
			`"TypeError: tool_search: query: expected a string (or an array of words), got an array"`},
		// Session 42: a tool's name under name, and namespaces as paths.
		{`return (await tool_search({name: "payments.transfer", limit: 1})).map(h => h.name)`, `["payments.transfer"]`},
		{`return (await tool_search({namespace: "tools/payments/", limit: 1})).map(h => h.name)`, `["payments.transfer"]`},
	} {
		res := exec(t, s, tc.code, nil)
		if !res.OK || string(res.Result) != tc.want {
			t.Errorf("%s: got %s %+v, want %s", tc.code, res.Result, res.Error, tc.want)
		}
	}
}

// TestLLMToolSchemasMatchArguments: what an LLM tool's inputSchema declares
// is what its arguments' parser takes: the same properties, every field the
// parser requires, and no field that a call may leave out except executeCode's
// explanation, which the contract asks of the model (a run without one still
// runs). searchTools' schema required "query", yet {} and {namespace} list
// tools: a provider validating against the schema refused them.
func TestLLMToolSchemasMatchArguments(t *testing.T) {
	cm := newTestCodeMode(t, Config{})
	s := mustSession(t, cm)
	for _, tc := range []struct {
		tool     string
		spec     argSpec
		required []string
	}{
		{"searchTools", searchToolsArgs, nil},
		{"executeCode", executeCodeArgs, []string{"code", "explanation"}},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			var schema struct {
				Properties map[string]json.RawMessage
				Required   []string
			}
			for _, tool := range s.LLMTools() {
				if tool.Name == tc.tool {
					if err := json.Unmarshal(tool.InputSchema, &schema); err != nil {
						t.Fatal(err)
					}
				}
			}
			var props []string
			for name := range schema.Properties {
				props = append(props, name)
			}
			sort.Strings(props)
			wantProps := tc.spec.names()
			sort.Strings(wantProps)
			if strings.Join(props, ",") != strings.Join(wantProps, ",") {
				t.Errorf("inputSchema.properties: got %v, want the parser's fields %v", props, wantProps)
			}
			if strings.Join(schema.Required, ",") != strings.Join(tc.required, ",") {
				t.Errorf("inputSchema.required: got %v, want %v", schema.Required, tc.required)
			}
			for _, f := range tc.spec.fields {
				if f.required && !strings.Contains(","+strings.Join(schema.Required, ",")+",", ","+f.name+",") {
					t.Errorf("inputSchema.required: %v lacks %q, which the parser requires", schema.Required, f.name)
				}
			}
		})
	}
}

// argsKey matches by hand what the regexp below says (the core compiles
// none at init); the table holds each way a text can fall short of it.
func TestArgsKey(t *testing.T) {
	re := regexp.MustCompile(`^\s*\{\s*(?:"([A-Za-z_]+)"|'([A-Za-z_]+)'|([A-Za-z_]+))\s*:`)
	for _, s := range []string{
		`{"code": "return 1`, ` \n{ "code" : 1`, "\t{\r\"Query_x\"\f:", `{"code":`,
		`{"code" "x"}`, `{"co de": 1}`, `{"": 1}`, `{"code`, `{code: 1}`, `[{"code": 1}]`,
		`{"c0de": 1}`, `{"@x": 1}`, `{"[": 1}`, `x{"code": 1}`, ``, `{`, `{"`, `{"a"`,
		"\v{\"code\": 1", `{"ünï": 1}`, `{"` + "`" + `": 1}`,
		`{ query : "x"}`, `{'code': 'x'}`, `{'code": 1}`, `{"code': 1}`, `{code 1}`, `{'': 1}`, `{''`, `{'`,
		`{c0de: 1}`, `{code`, `{ return 1 }`, `{x = 1}`,
	} {
		want, wantQuoted := "", false
		if m := re.FindStringSubmatch(s); m != nil {
			want, wantQuoted = m[1]+m[2]+m[3], m[1] != ""
		}
		if got, quoted := argsKey(s); got != want || quoted != wantQuoted {
			t.Errorf("argsKey(%q) = %q, %v, want %q, %v", s, got, quoted, want, wantQuoted)
		}
	}
}

// TestToolSearchErrorPosition: tool_search's TypeError left uncaught ended
// the run with no line or column (it is thrown after the call's await,
// through no frame of the program); it has the call's, as a tool's error
// has, when the code calls tool_search in one place.
func TestToolSearchErrorPosition(t *testing.T) {
	cm := newTestCodeMode(t, Config{})
	s := mustSession(t, cm)
	for _, tc := range []struct {
		code      string
		line, col int
	}{
		{`const r = await tool_search({ query: "orders", limit: "five" });` + "\nreturn r", 1, 28},
		{"async function main() {\n  return (await tool_search(\"x\", { limit: 0 })).length\n}", 2, 28},
		{`await tool_search("orders");` + "\n" + `return await tool_search({ qery: "x" })`, 0, 0},
	} {
		res := exec(t, s, tc.code, nil)
		if res.OK || res.Error.Name != "TypeError" || !strings.HasPrefix(res.Error.Message, "tool_search: ") || res.Error.Line != tc.line || res.Error.Column != tc.col {
			t.Errorf("%s: got %+v, want tool_search's TypeError at %d:%d", tc.code, res.Error, tc.line, tc.col)
		}
	}
}
