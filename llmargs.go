package codemode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/interopio/code-mode/internal/keys"
	"github.com/interopio/code-mode/internal/search"
)

// ErrorCodeInvalidInput is the code of a result whose LLM tool arguments
// were wrong (missing code, a limit that is not a number, ...).
const ErrorCodeInvalidInput = "INVALID_INPUT"

// argField is one field of an LLM tool's arguments.
type argField struct {
	name     string
	kind     string // "string" or "integer"
	required bool
	// min and max bound an integer; a larger value is clamped to max.
	min, max int
	// exact: no coercion to a string (a number is no program: the model
	// misunderstood the field, and should hear so).
	exact bool
	// words: an array of strings is read as its words, joined by spaces
	// (models send a query as keywords: ["refund", "order"]).
	words bool
}

// coercedFrom is the key under which parse keeps what a string field was
// read from when it was a number or a boolean (kindOf's words): a search
// whose query was the number 5 and matches nothing says so, where [] alone
// left the model with no word (no field has such a name).
func coercedFrom(field string) string { return field + " from" }

// argSpec is what one LLM tool takes. bare is the field a lone string
// stands for (models often send "find orders" where {query} is expected).
type argSpec struct {
	tool   string
	fields []argField
	bare   string
	// maxText bounds arguments that are a string (0: no bound): reading
	// one as the arguments cut short or encoded twice takes passes over
	// it, 2.2 s for 10 MB on a page's thread, for a program that could
	// not run anyway (maxCodeBytes), or a query read to 1,000 characters.
	maxText int
}

// maxCodeBytes bounds a program's text (ExecuteCodeInput.Code), in bytes
// of UTF-8: what happens to it before the run's timeout starts, and while
// QuickJS compiles it (its parser never checks the time), takes time in
// proportion: 10 MB of small statements held a page's thread 14 s for a
// run with a 1 s timeout. 1 MiB is past what a model writes in one answer
// (its output limit, 128K tokens at most, is about 500 KB of code).
const maxCodeBytes = 1 << 20

// codeTooLong is the error of a program of n bytes, more than maxCodeBytes.
func codeTooLong(n int) string {
	return fmt.Sprintf("executeCode: code: %d bytes, more than the %d (1 MiB) a program may have; write a shorter program: the data it needs comes from tools, not written into the code", n, maxCodeBytes)
}

var (
	// A query is read to its first 1,000 characters (maxQueryChars).
	searchToolsArgs = argSpec{tool: "searchTools", bare: "query", maxText: 1 << 20, fields: []argField{
		{name: "query", kind: "string", words: true},
		{name: "namespace", kind: "string"},
		{name: "limit", kind: "integer", min: 1, max: search.MaxLimit},
	}}
	// tool_search inside the sandbox takes the same arguments.
	toolSearchArgs  = argSpec{tool: "tool_search", bare: "query", fields: searchToolsArgs.fields}
	executeCodeArgs = argSpec{tool: "executeCode", bare: "code", maxText: 4 * maxCodeBytes, fields: []argField{
		{name: "code", kind: "string", required: true, exact: true},
		{name: "explanation", kind: "string"},
	}}
)

// argsError is an LLM tool argument the model got wrong. Its message names
// the field and the type expected, in the model's terms (never Go's).
type argsError struct{ msg string }

func (e *argsError) Error() string { return e.msg }
func (e *argsError) Unwrap() error { return errInvalidInput }

// parseArgs reads an LLM tool's arguments as models send them: a JSON
// object, the same object as JSON text (OpenAI's function.arguments passed
// as is), or a lone string for the spec's bare field. Unambiguous values
// are coerced: numeric strings to integers, numbers and booleans to
// strings (an explanation, never the code). Everything else is an
// *argsError.
func (spec argSpec) parse(args json.RawMessage) (map[string]any, error) {
	args = bytes.TrimSpace(args)
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage("{}")
	}
	var raw any
	if err := decodeOne([]byte(args), &raw); err == errMoreJSON {
		return nil, &argsError{fmt.Sprintf("%s: the arguments are JSON text that %s; expected one object %s", spec.tool, moreJSON, spec.shape())}
	} else if err == errTooDeep {
		return nil, &argsError{fmt.Sprintf("%s: the arguments are JSON that %s; expected an object %s", spec.tool, errTooDeep, spec.shape())}
	} else if err != nil {
		return nil, &argsError{fmt.Sprintf("%s: the arguments are not JSON; expected an object %s", spec.tool, spec.shape())}
	}
	if s, ok := raw.(string); ok {
		if spec.maxText > 0 && len(s) > spec.maxText {
			return nil, &argsError{fmt.Sprintf("%s: the arguments are a string of %d bytes, more than the %d they may be; expected an object %s", spec.tool, len(s), spec.maxText, spec.shape())}
		}
		// The arguments encoded twice or more: a program (or query) that
		// is only a string literal does nothing. Each decoding is shorter.
		inner := jsonObject(s)
		for t := s; inner == nil && t != ""; inner = jsonObject(t) {
			t = jsonString(t)
		}
		if inner != nil {
			raw = inner
		} else if firstOf(s)[spec.bare] != nil {
			// Calls' arguments in an array, as text: run as the program,
			// they gave the array back as its result.
			raw = []any{}
		} else if why := spec.brokenArgs(s); why != "" {
			return nil, &argsError{why}
		} else {
			raw = map[string]any{spec.bare: s}
		}
	}
	obj, ok := raw.(map[string]any)
	if !ok {
		return nil, &argsError{fmt.Sprintf("%s: expected the arguments to be an object %s, got %s", spec.tool, spec.shape(), kindOf(raw))}
	}
	// LangChain's one input of a tool, { __arg1: "..." }, and LlamaIndex's
	// agents' arguments that did not parse as JSON, { rawInput: "..." }
	// (a comma before a brace, a bare program): the lone string.
	for _, k := range [...]string{"__arg1", "rawInput"} {
		if a, ok := obj[k].(string); ok && len(obj) == 1 {
			b, _ := json.Marshal(a)
			return spec.parse(b)
		}
	}
	// The call's envelope as the arguments: { name: "searchTools",
	// arguments: {...} } (Ollama's parameters, an input, OpenAI's function
	// object, arguments as JSON text), unless it names the other tool.
	for _, k := range []string{"function", "arguments", "parameters", "input"} {
		v := obj[k]
		if t, ok := v.(string); ok {
			v = jsonObject(t)
		}
		inner, _ := v.(map[string]any)
		n, _ := obj["name"].(string)
		if other := n != "" && strings.Contains(n, "earch") != (spec.bare == "query"); inner != nil && obj[spec.bare] == nil && !other {
			obj = inner
		}
	}
	// xLAM's {"tool_calls": [{"name": ..., "arguments": {...}}]}, or a bare
	// JSON list of calls, as the program: one is read as the call, more are
	// refused (as a program, the list was its value, or a SYNTAX error).
	if args, n := listedCall(obj[spec.bare], spec.tool); n > 1 {
		return nil, &argsError{spec.tool + ": several calls in one list" + markupHint}
	} else if n == 1 {
		obj[spec.bare] = args
	}
	obj = spec.unnest(obj)
	// Two calls or more in one list of a template's markup
	// (<|tool_call_start|>[{...}, {...}]): TypeScript's reading took the
	// token for a cast, and the list ran as the program's value.
	if s, _ := obj[spec.bare].(string); (strings.HasPrefix(s, "<|") || strings.HasPrefix(s, "<｜")) && strings.Count(s, `"`+spec.tool+`"`) > 1 {
		return nil, &argsError{spec.tool + ": several calls in one list" + markupHint}
	}
	if spec.bare == "query" {
		// searchTools({ name: "payments.refund" }), { tool }, { names: [...] }:
		// the tool (or tools) the model wants, which the query finds. And
		// top_k: 3, max_results: 3: the limit as other search APIs name it,
		// ignored beside the query like any key the tool does not take.
		// { q }, { search }, { keywords }: other search APIs' query, read
		// as the query; beside one, which of two queries is unclear.
		for _, a := range bareAliases["query"][:4] {
			if _, both := obj[a]; both && obj["query"] != nil {
				return nil, &argsError{fmt.Sprintf("%s: both query and %q were given; send one query", spec.tool, a)}
			}
		}
		aliased(obj, "query", append(queryAliases, bareAliases["query"][:4]...))
		aliased(obj, "limit", limitAliases)
	}
	var unknown []string
	for k := range obj {
		if spec.field(k) == nil {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	// Keys the tool does not take are ignored beside its main field (a
	// model's language: "javascript" or timeout: 5000 changes nothing a
	// run does, and rejecting them costs a turn); without it, one of them
	// is likely that field misspelt, and is named.
	if _, has := obj[spec.bare]; len(unknown) > 0 && !has {
		return nil, &argsError{spec.misnamed(unknown, obj)}
	}
	out := make(map[string]any, len(spec.fields))
	for _, f := range spec.fields {
		v, present := obj[f.name]
		if !present || v == nil {
			if f.required {
				msg := fmt.Sprintf("%s: %s: required; expected a %s", spec.tool, f.name, f.describe())
				// None at all, or {}: what a client passes where the model's
				// arguments did not parse as JSON (Mastra gives {}), which
				// "required" alone did not tell a model that sent code.
				if len(obj) == 0 {
					msg += ", got no arguments (clients drop arguments that are not valid JSON): send one JSON object " + spec.shape()
				}
				return nil, &argsError{msg}
			}
			continue
		}
		cv, err := f.coerce(v)
		if err != nil {
			return nil, &argsError{fmt.Sprintf("%s: %s: %v", spec.tool, f.name, err)}
		}
		out[f.name] = cv
		switch v.(type) {
		case json.Number, bool:
			if f.kind == "string" {
				out[coercedFrom(f.name)] = kindOf(v)
			}
		}
	}
	return out, nil
}

// bareAliases are what models call the main field of an LLM tool, beyond
// an edit's reach of its name.
var bareAliases = map[string][]string{
	"code":  {"script", "javascript", "js", "typescript", "ts", "program", "source", "snippet"},
	"query": {"q", "search", "keywords", "keyword", "text", "term", "terms"},
}

// limitAliases are what other search APIs call a search's limit.
var limitAliases = []string{"top_k", "topK", "max_results", "maxResults", "num_results", "numResults", "k", "n"}

// queryAliases are the keys under which a model names the tool it wants.
var queryAliases = []string{"name", "names", "tool", "tools", "tool_name", "toolName", "id"}

// aliased moves obj's value of the first of names it has to field, unless
// it has field.
func aliased(obj map[string]any, field string, names []string) {
	if _, has := obj[field]; has {
		return
	}
	for _, a := range names {
		if v, ok := obj[a]; ok {
			obj[field] = v
			delete(obj, a)
			return
		}
	}
}

// misnamed is the message for arguments without the main field but with
// keys the tool does not take (sorted): the first that looks like the
// main field misspelt is named as such.
// A model that sent the other LLM tool's arguments ({ query } to
// executeCode, { code } to searchTools) is told which tool takes them.
func (spec argSpec) misnamed(unknown []string, obj map[string]any) string {
	other, its := "searchTools", "query"
	if spec.tool != "executeCode" {
		other, its = "executeCode", "code"
	}
	if _, ok := obj[its]; ok && spec.tool != "tool_search" {
		return spec.tool + ": unknown argument \"" + its + "\", which " + other + " takes: call " + other + " with it (" + spec.tool + " takes " + spec.shape() + ")"
	}
	for _, k := range unknown {
		if keys.Nearest(k, []string{spec.bare}) != "" || slices.Contains(bareAliases[spec.bare], strings.ToLower(k)) {
			return fmt.Sprintf("%s: unknown argument %q (did you mean %q?); expected %s", spec.tool, k, spec.bare, spec.shape())
		}
	}
	if f := spec.field(spec.bare); f.required {
		got := make([]string, 0, len(obj))
		for k := range obj {
			got = append(got, strconv.Quote(k))
		}
		sort.Strings(got)
		return fmt.Sprintf("%s: %s: required; expected a %s, got only the keys %s (the arguments are %s)",
			spec.tool, f.name, f.describe(), strings.Join(got, ", "), spec.shape())
	}
	k := unknown[0]
	return fmt.Sprintf("%s: unknown argument %q%s; expected %s", spec.tool, k, keys.DidYouMean(k, spec.names()), spec.shape())
}

// errMoreJSON is text after a JSON value: a model that put several calls
// in one call's arguments ({"code": ...}{"code": ...}), of which running
// the first alone would drop the others without a word.
var errMoreJSON = errors.New("more after the JSON value")

const moreJSON = "goes on after its object (several calls in one?)"

// errTooDeep is JSON text nesting more than maxParseDepth levels, which
// decodeOne does not decode: encoding/json's decoder recurses once per
// level, under GOOS=js on the JavaScript engine's stack, and executeCode's
// arguments as JSON text holding a value 6,000 levels deep (a model's
// text) overflowed it and ended the Go program. No argument nests so.
var errTooDeep = errors.New("nests more than 1,000 levels deep")

// decodeOne decodes the one JSON value text holds (numbers as
// json.Number); anything but whitespace after it is errMoreJSON, text
// nesting past maxParseDepth errTooDeep.
func decodeOne[T string | []byte](text T, v *any) error {
	if textTooDeep(text) {
		return errTooDeep
	}
	d := json.NewDecoder(strings.NewReader(string(text)))
	d.UseNumber()
	if err := d.Decode(v); err != nil {
		return err
	}
	if _, err := d.Token(); err != io.EOF {
		return errMoreJSON
	}
	return nil
}

// jsonObject decodes s when it is the JSON text of an object, else nil.
// A comma before a closing brace or bracket ({"code": "return 1",}, or
// {"tags": ["a",]}), which models write now and then, and handleToolCall
// reads past, is dropped, and so are comments (// and /* */, JSONC's):
// JSON text never has either there, so text that
// parsed is read as before. So is a markdown fence around the whole text
// (```json ... ```), which a model in JSON mode writes as it would in a
// chat: no program or query is one.
func jsonObject(s string) map[string]any {
	s = fencedJSON(strings.TrimLeft(s, " \t\r\n\ufeff")) // a BOM of copied text too
	if !strings.HasPrefix(strings.TrimSpace(s), "{") {
		return nil
	}
	var v any
	if decodeOne(s, &v) != nil {
		lenient, dropped := dropClosingCommas(s)
		if !dropped || decodeOne(lenient, &v) != nil {
			return nil
		}
	}
	obj, _ := v.(map[string]any)
	return obj
}

// dropClosingCommas is s without each comma that only white space
// separates from a closing brace or bracket, outside strings (those of
// handleToolCall's reading, json in web/src/adapters/llm-call.mjs: a
// string unclosed at the end runs to it), and without comments, and
// whether there was one of either. A Python dict's repr is JSON too:
// its 'strings' in double quotes, True, False and None as JSON writes them
// (outside a string, any bare word is no JSON).
func dropClosingCommas(s string) (string, bool) {
	var b strings.Builder
	inString, escaped, dropped, comment, single := false, false, false, false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inString:
			inString = escaped || c != '"'
			escaped = !escaped && c == '\\'
		case single:
			switch {
			case escaped:
				escaped = false
				if c != '\'' {
					b.WriteByte('\\')
				}
			case c == '\\':
				escaped = true
				continue
			case c == '\'':
				single, c = false, '"'
			case c == '"':
				b.WriteByte('\\')
			}
		case c == '\'':
			single, c, dropped = true, '"', true
		case strings.HasPrefix(s[i:], "True") || strings.HasPrefix(s[i:], "False") || strings.HasPrefix(s[i:], "None"):
			w := "null"
			if c == 'T' {
				w = "true"
			} else if c == 'F' {
				w = "false"
			}
			b.WriteString(w)
			i += len(w) - 1
			dropped = true
			continue
		case c == '"':
			inString = true
		case c == '/' && i+1 < len(s) && (s[i+1] == '/' || s[i+1] == '*'):
			end := "\n"
			if s[i+1] == '*' {
				end = "*/"
			}
			j := strings.Index(s[i+2:], end)
			if j < 0 && end == "*/" {
				return s, false
			} else if j < 0 {
				j = len(s)
			}
			i += j + len(end) + 1
			comment = true
			continue
		case c == ',':
			rest := strings.TrimLeft(s[i+1:], " \t\n\r")
			if rest != "" && (rest[0] == '}' || rest[0] == ']') {
				dropped = true
				continue
			}
		}
		b.WriteByte(c)
	}
	if comment {
		// A comma before a comment and a brace: a pass more.
		out, _ := dropClosingCommas(b.String())
		return out, true
	}
	return b.String(), dropped
}

// fencedJSON is the text inside s when s is one markdown fence, bare or
// of json, else s.
func fencedJSON(s string) string {
	rest, ok := strings.CutPrefix(strings.TrimSpace(s), "```")
	if !ok {
		return s
	}
	head, body, ok := strings.Cut(rest, "\n")
	if h := strings.TrimSpace(head); !ok || h != "" && !strings.EqualFold(h, "json") {
		return s
	}
	if body, ok = strings.CutSuffix(strings.TrimSpace(body), "```"); !ok {
		return s
	}
	return body
}

// argsKey is the first key of s when s begins as the JSON text of
// arguments does, a brace, then a key of letters and underscores, then a
// colon (whitespace allowed between them), else "". The key may also be
// in single quotes or none ({code: "..."}, as JavaScript writes an
// object; quoted says whether it was in double quotes). Matched by hand:
// the core compiles no regexp at package init (coreinit_test.go).
func argsKey(s string) (key string, quoted bool) {
	const space = " \t\n\f\r"
	s = strings.TrimLeft(s, space)
	s, ok := strings.CutPrefix(s, "{")
	if !ok {
		return "", false
	}
	s = strings.TrimLeft(s, space)
	quote := ""
	if s != "" && (s[0] == '"' || s[0] == '\'') {
		quote, s = s[:1], s[1:]
	}
	n := 0
	for n < len(s) && (s[n] == '_' || 'a' <= s[n]|0x20 && s[n]|0x20 <= 'z') {
		n++
	}
	key, rest := s[:n], s[n:]
	rest, ok = strings.CutPrefix(rest, quote)
	if n == 0 || !ok || !strings.HasPrefix(strings.TrimLeft(rest, space), ":") {
		return "", false
	}
	return key, quote == `"`
}

// brokenArgs is the message for a lone string that is the tool's
// arguments as JSON text that does not parse (an answer cut off at the
// model's token limit: {"code": "const a = ..., several calls in one, or
// keys without double quotes), else "". Such text was run as the program,
// and the model read a syntax error in code it never meant as code, or
// its own arguments back as the result ({code: "return 1"} is a block
// whose value is that string); it begins with a key of the tool
// ({"code":, {code:), which no JavaScript program does.
func (spec argSpec) brokenArgs(s string) string {
	key, quoted := argsKey(s)
	if key == "" || spec.field(key) == nil {
		return ""
	}
	why := "does not parse"
	var v any
	if err := decodeOne(s, &v); err == errMoreJSON {
		why = moreJSON
	} else if err == errTooDeep {
		why = errTooDeep.Error()
	} else if !quoted {
		why += " (JSON writes keys and strings in double quotes)"
	} else if errors.Is(err, io.ErrUnexpectedEOF) {
		why = "ends before its object does (cut short?)"
	}
	return fmt.Sprintf("%s: the arguments are JSON text that %s; expected an object %s", spec.tool, why, spec.shape())
}

// firstOf is the first object of the JSON text of an array s, else nil.
func firstOf(s string) map[string]any {
	var v any
	if !strings.HasPrefix(strings.TrimSpace(s), "[") || decodeOne(s, &v) != nil {
		return nil
	}
	if l, _ := v.([]any); len(l) > 0 {
		o, _ := l[0].(map[string]any)
		return o
	}
	return nil
}

// jsonString decodes s when it is the JSON text of a string, else "".
func jsonString(s string) string {
	var v string
	if !strings.HasPrefix(strings.TrimSpace(s), `"`) || json.Unmarshal([]byte(s), &v) != nil {
		return ""
	}
	return v
}

// unnest reads arguments that a model sent inside its bare field, as JSON
// text ({"code": "{\"code\": \"...\", \"explanation\": ...}"}), as an
// object ({"code": {"code": "..."}}) or in tool-call markup (markupArgs): when
// that text is an object of the spec's fields only, its fields are the
// arguments, the outer ones filling what it lacks. Only a program that is
// a JSON object is read so, and that is no program (a SYNTAX error).
func (spec argSpec) unnest(obj map[string]any) map[string]any {
	inner, ok := obj[spec.bare].(map[string]any)
	if !ok {
		// As JSON text, or the object itself ({"code": {"code": "..."}}).
		s, _ := obj[spec.bare].(string)
		if inner = jsonObject(s); inner == nil {
			// Or in the model's tool-call markup.
			if inner = markupArgs(s, spec.tool); inner == nil {
				if inner = jsonCall(s, spec.tool); inner == nil {
					// ReAct's Action: name, then Action Input: the arguments,
					// the program or the query (LangChain's agents).
					_, in, ok := strings.Cut(s, "Action: "+spec.tool+"\nAction Input:")
					if !ok {
						return obj
					}
					if in = strings.TrimSpace(in); jsonObject(in) != nil {
						inner = jsonObject(in)
					} else {
						inner = map[string]any{spec.bare: in}
					}
				}
			}
		}
	}
	if _, ok := inner[spec.bare]; !ok {
		return obj
	}
	for k := range inner {
		if spec.field(k) == nil {
			return obj
		}
	}
	for k, v := range obj {
		if _, ok := inner[k]; !ok {
			inner[k] = v
		}
	}
	return inner
}

// markupArgs is the arguments of the one call of tool that s is, as a
// model's chat template writes a call into its text: Hermes and Qwen's
// <tool_call>{"name": ..., "arguments": ...}</tool_call>, Llama 3.1's
// <function=name>{...}</function>, or <invoke name="..."><parameter
// name="...">...</parameter></invoke> (in <function_calls> or not), the
// closing tag missing or not (a stop sequence of the model's server);
// else nil. No program or query is such markup; markup of several calls,
// or of another tool's, stays the syntax error that names it.
func markupArgs(s, tool string) map[string]any {
	// The call's text: the tags after it cut off, then the one before.
	s = strings.TrimPrefix(strings.TrimSpace(s), "<function_calls>")
	for _, tag := range []string{"</function_calls>", "</tool_call>", "</function>", "</invoke>"} {
		s = strings.TrimSuffix(strings.TrimSpace(s), tag)
	}
	s = strings.TrimSpace(s)
	// FunctionGemma's <start_function_call>call:name{k:<escape>v<escape>,...}
	// <end_function_call>: each value a string between <escape> tokens.
	if body, ok := strings.CutPrefix(s, "<start_function_call>call:"+tool+"{"); ok {
		parts := strings.Split(strings.TrimSuffix(body, "<end_function_call>"), "<escape>")
		args := map[string]any{}
		for i := 0; i+1 < len(parts); i += 2 {
			k, ok := strings.CutSuffix(strings.TrimLeft(parts[i], ", "), ":")
			if !ok {
				return nil
			}
			args[k] = parts[i+1]
		}
		if len(parts)%2 == 0 || parts[len(parts)-1] != "}" {
			return nil
		}
		return args
	}
	// GLM's <tool_call>name<arg_key>k</arg_key><arg_value>v</arg_value>,
	// Qwen3-Coder's <tool_call><function=name><parameter=k>v</parameter>.
	if body, ok := strings.CutPrefix(s, "<tool_call>"); ok {
		if b, ok := strings.CutPrefix(strings.TrimSpace(body), tool); ok {
			return tagged(b, "<arg_key>", "</arg_key>", "<arg_value>", "</arg_value>")
		}
		if b := strings.TrimSpace(body); strings.HasPrefix(b, "<function=") {
			s = b
		}
	}
	if body, ok := strings.CutPrefix(s, "<function="+tool+">"); ok {
		if args := jsonObject(body); args != nil {
			return args
		}
		return tagged(body, "<parameter=", ">", "", "</parameter>")
	}
	// The special tokens of other templates, the tool's name, then its
	// arguments' object: Mistral's [TOOL_CALLS][{"name": ..., "arguments":
	// {...}}] (or [TOOL_CALLS]name[ARGS]{...}), gpt-oss's <|channel|>commentary
	// to=functions.name <|constrain|>json<|message|>{...}<|call|>, Kimi's
	// <|tool_call_begin|>functions.name:0<|tool_call_argument_begin|>{...},
	// DeepSeek's <｜tool▁call▁begin｜>function<｜tool▁sep｜>name ```json {...}```;
	// with no other object after it (a second call).
	// And Functionary's >>>name, Qwen-Agent's ✿FUNCTION✿: name ✿ARGS✿:.
	if strings.HasPrefix(s, "<|") || strings.HasPrefix(s, "<｜") || strings.HasPrefix(s, "[TOOL_CALLS]") || strings.HasPrefix(s, ">>>") || strings.HasPrefix(s, "✿") {
		// The name whole, before the arguments: functions.executeCode2, or
		// "executeCode" inside another tool's arguments, is another call.
		// Mistral's list of calls is read as <tool_call>'s object below.
		if body, ok := strings.CutPrefix(s, "[TOOL_CALLS]["); ok {
			return markupArgs("<tool_call>"+strings.TrimSuffix(body, "]"), tool)
		}
		before, after, _ := strings.Cut(s, tool)
		i := strings.IndexByte(after, '{')
		if i < 0 || strings.Contains(before, "{") || isIdentByte(before[len(before)-1]) || isIdentByte(after[0]) {
			return nil
		}
		d := json.NewDecoder(strings.NewReader(after[i:]))
		d.UseNumber()
		var args map[string]any
		if d.Decode(&args) != nil || strings.Contains(after[i+int(d.InputOffset()):], "{") {
			return nil
		}
		return args
	}
	if body, ok := strings.CutPrefix(s, "<tool_call>"); ok {
		call := jsonObject(body)
		if text, ok := call["arguments"].(string); ok {
			call["arguments"] = jsonObject(text)
		}
		if args, ok := call["arguments"].(map[string]any); ok && call["name"] == tool {
			return args
		}
		return nil
	}
	body, ok := strings.CutPrefix(s, `<invoke name="`+tool+`">`)
	if !ok {
		return nil
	}
	return tagged(body, `<parameter name="`, `">`, "", "</parameter>")
}

// jsonCall is the arguments of the one call of tool that s holds as JSON
// after a template's tokens or words, closing markup only after it:
// Command R's <|START_ACTION|>[{tool_name, parameters}] (and Cohere's
// Action: ```json), LFM2's <|tool_call_start|>[{name, arguments}],
// Granite's <|tool_call|>, Magistral's [TOOL_CALLS] after [THINK],
// Nemotron's <TOOLCALL>, InternLM's <|plugin|>, Apertus's {name: arguments},
// each read as <tool_call>'s object. Else nil: a program has code ({, =, ;
// or () before its first object, or no markup before it.
func jsonCall(s, tool string) map[string]any {
	j := max(strings.LastIndexByte(s, ']'), strings.LastIndexByte(s, '}'))
	// Trimmed once, and before each bracket only back to the word before
	// it: each bracket trimmed both ends again, and 20,000 brackets then
	// as many spaces took a second (a program of 1 MiB, most of an hour).
	rest := strings.TrimSpace(s[j+1:])
	for i := range strings.IndexAny(s, "{}=;(") + 1 {
		if s[i] != '[' && s[i] != '{' || j < i {
			continue
		}
		if p := strings.TrimRightFunc(s[:i], unicode.IsSpace); p != "" && (strings.ContainsAny(p[len(p)-1:], ">]:") || strings.HasSuffix(p, "json")) && (rest == "" || rest[0] == '<' || rest == "```") {
			// Keys outside a string: a JSON string holds no bare quote.
			call := strings.NewReplacer(`"tool_name":`, `"name":`, `"parameters":`, `"arguments":`, `{"`+tool+`":`, `{"name":"`+tool+`","arguments":`).Replace(s[i : j+1])
			if call[0] == '[' {
				call = call[1 : len(call)-1]
			}
			return markupArgs("<tool_call>"+call, tool)
		}
	}
	return nil
}

// listedCall reads v, a program or query, as JSON text of a list of calls
// of tool, each {"name", "arguments"} (an object, or its JSON text) or
// OpenAI's {"function": {...}}, the list bare or xLAM's {"tool_calls":
// [...]}: it returns the list's length and the last call's arguments; 0
// for anything else.
func listedCall(v any, tool string) (map[string]any, int) {
	s, _ := v.(string)
	if s = strings.TrimSpace(s); s == "" || s[0] != '[' && s[0] != '{' || decodeOne(s, &v) != nil {
		return nil, 0
	}
	if o, ok := v.(map[string]any); ok && len(o) == 1 {
		v = o["tool_calls"]
	}
	list, _ := v.([]any)
	var args map[string]any
	for _, c := range list {
		call, _ := c.(map[string]any)
		if f, ok := call["function"].(map[string]any); ok {
			call = f
		}
		args, _ = call["arguments"].(map[string]any)
		if text, ok := call["arguments"].(string); ok {
			args = jsonObject(text)
		}
		if args == nil || call["name"] != tool {
			return nil, 0
		}
	}
	return args, len(list)
}

// tagged is the arguments of body, parameters each of open, its name, mid,
// value (after valueOpen) and end, with nothing else around them; else nil.
func tagged(body, open, mid, valueOpen, end string) map[string]any {
	params := strings.Split(body, end)
	last := len(params) - 1
	if strings.TrimSpace(params[last]) != "" {
		return nil
	}
	args := map[string]any{}
	for _, p := range params[:last] {
		before, p, _ := strings.Cut(strings.TrimSpace(p), open)
		k, v, ok := strings.Cut(p, mid)
		v, in := strings.CutPrefix(strings.TrimSpace(v), valueOpen)
		if before != "" || !ok || !in {
			return nil
		}
		args[k] = v
	}
	return args
}

// positional is the field name read from a number given as an argument
// of its own (raw), nil for anything else.
func (spec argSpec) positional(name string, raw json.RawMessage) (any, error) {
	var n json.Number
	if json.Unmarshal(raw, &n) != nil || n == "" {
		return nil, nil
	}
	v, err := spec.field(name).coerce(n)
	if err != nil {
		return nil, &argsError{fmt.Sprintf("%s: %s: %v", spec.tool, name, err)}
	}
	return v, nil
}

func (spec argSpec) field(name string) *argField {
	for i := range spec.fields {
		if spec.fields[i].name == name {
			return &spec.fields[i]
		}
	}
	return nil
}

func (spec argSpec) names() []string {
	n := make([]string, len(spec.fields))
	for i, f := range spec.fields {
		n[i] = f.name
	}
	return n
}

// shape is the spec as TypeScript, for messages.
func (spec argSpec) shape() string {
	parts := make([]string, len(spec.fields))
	for i, f := range spec.fields {
		opt := "?"
		if f.required {
			opt = ""
		}
		t := f.kind
		if t == "integer" {
			t = "number"
		}
		parts[i] = f.name + opt + ": " + t
	}
	return "{ " + strings.Join(parts, "; ") + " }"
}

func (f argField) describe() string {
	if f.kind == "integer" {
		return fmt.Sprintf("integer %d..%d", f.min, f.max)
	}
	return "string"
}

// coerce converts one value to the field's kind where that is unambiguous.
func (f argField) coerce(v any) (any, error) {
	switch f.kind {
	case "string":
		switch x := v.(type) {
		case string:
			return x, nil
		case json.Number:
			if !f.exact {
				return x.String(), nil
			}
		case bool:
			if !f.exact {
				return strconv.FormatBool(x), nil
			}
		case []any:
			if words, ok := wordsOf(x); ok && f.words {
				return words, nil
			}
			if f.words {
				return nil, fmt.Errorf("expected a string (or an array of words), got %s", kindOf(v))
			}
		}
		return nil, fmt.Errorf("expected a string, got %s", kindOf(v))
	case "integer":
		var n float64
		switch x := v.(type) {
		case json.Number:
			n, _ = strconv.ParseFloat(x.String(), 64)
		case string:
			p, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
			if err != nil {
				return nil, fmt.Errorf("expected an %s, got %s", f.describe(), kindOf(v))
			}
			n = p
		default:
			return nil, fmt.Errorf("expected an %s, got %s", f.describe(), kindOf(v))
		}
		if n != math.Trunc(n) || math.IsInf(n, 0) || n < float64(f.min) {
			return nil, fmt.Errorf("expected an %s, got %s", f.describe(), kindOf(v))
		}
		return int(min(n, float64(f.max))), nil
	}
	return v, nil
}

// wordsOf joins an array of strings by spaces; ok is false when it holds
// anything else, or nothing.
func wordsOf(list []any) (string, bool) {
	words := make([]string, len(list))
	for i, w := range list {
		s, ok := w.(string)
		if !ok {
			return "", false
		}
		words[i] = s
	}
	return strings.Join(words, " "), len(words) > 0
}

// unmatchedQuery is the error of a search that matched nothing with a
// query read from a number or a boolean (in: parse's output), nil for any
// other: the model put a value in the wrong field, or meant words.
func unmatchedQuery(tool string, in map[string]any) error {
	from, ok := in[coercedFrom("query")].(string)
	if !ok {
		return nil
	}
	return &argsError{fmt.Sprintf("%s: query: expected a string of words saying what the tool does (\"refund an order\"), got %s, which matches no tool", tool, from)}
}

// kindOf names a decoded JSON value for messages, with the value when it
// is short enough to help.
func kindOf(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return fmt.Sprintf("the boolean %v", x)
	case json.Number:
		return "the number " + x.String()
	case string:
		if len(x) > 40 {
			return "a string"
		}
		return fmt.Sprintf("the string %q", x)
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// invalidInputResult is the executeCode-shaped result of arguments the
// model got wrong: the model reads it and corrects itself, where an error
// would end an agent loop that does not catch it.
func invalidInputResult(err error) *ExecuteResult {
	return &ExecuteResult{
		Error:     &RunError{Name: "TypeError", Message: err.Error(), Code: ErrorCodeInvalidInput},
		Logs:      []LogEntry{},
		ToolCalls: []ToolCallRecord{},
	}
}
