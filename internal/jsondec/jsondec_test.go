package jsondec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/interopio/code-mode/third_party/jsonschema"
)

// The option sets the module decodes with: a schema at registration
// (tool.go), a schema or input for the validator (schema.go), a schema
// rendered as a signature and a sampled result (tsgen).
var (
	unmarshal = Options{}
	numbers   = Options{Numbers: true}
	ordered   = Options{Ordered: true, Numbers: true}
	shape     = Options{Ordered: true, Numbers: true, MaxDepth: 6, MaxElems: 50, StringsUnread: true}
	shared    = Options{Numbers: true, Shared: true}
	// an input checked against a schema that reads it n levels deep
	outlines = []Options{{Numbers: true, Shared: true, Outline: 1}, {Numbers: true, Shared: true, Outline: 2}, {Numbers: true, Outline: 4}}
)

// oracle decodes text with encoding/json's tokens into what Decode gives
// with o, bounds applied after: the decoder this package replaced in tsgen.
// Its tokens take nesting past encoding/json's limit, which json.Valid
// (and json.Unmarshal) refuse.
func oracle(text []byte, o Options) (any, error) {
	if !json.Valid(text) {
		return nil, errors.New("not valid JSON")
	}
	dec := json.NewDecoder(bytes.NewReader(text))
	if o.Numbers {
		dec.UseNumber()
	}
	v, err := oracleValue(dec, o)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("trailing data: %v", err)
	}
	return bound(v, o, 0), nil
}

func oracleValue(dec *json.Decoder, o Options) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		obj := &Object{Vals: map[string]any{}}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := oracleValue(dec, o)
			if err != nil {
				return nil, err
			}
			if _, dup := obj.Vals[k.(string)]; !dup {
				obj.Keys = append(obj.Keys, k.(string))
			}
			obj.Vals[k.(string)] = v
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		if o.Ordered {
			return obj, nil
		}
		return obj.Vals, nil
	case json.Delim('['):
		list := []any{}
		for dec.More() {
			v, err := oracleValue(dec, o)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
		_, err := dec.Token()
		return list, err
	}
	return tok, nil
}

// bound cuts a fully decoded value to o's MaxDepth and MaxElems.
func bound(v any, o Options, depth int) any {
	deep := o.MaxDepth > 0 && depth >= o.MaxDepth
	switch x := v.(type) {
	case []any:
		out := []any{}
		for i, e := range x {
			if deep || o.MaxElems > 0 && i == o.MaxElems {
				break
			}
			out = append(out, bound(e, o, depth+1))
		}
		return out
	case *Object:
		out := &Object{Vals: map[string]any{}}
		for _, k := range x.Keys {
			if deep {
				break
			}
			out.Keys = append(out.Keys, k)
			out.Vals[k] = bound(x.Vals[k], o, depth+1)
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			if deep {
				break
			}
			out[k] = bound(e, o, depth+1)
		}
		return out
	case string:
		if o.StringsUnread {
			return ""
		}
	}
	return v
}

// outlined is v, decoded whole, with each array and object at o's Outline
// and deeper as the Passed of its kind.
func outlined(v any, o Options, depth int) any {
	deep := depth >= o.Outline-1
	switch x := v.(type) {
	case []any:
		if deep {
			return Passed('[')
		}
		out := []any{}
		for _, e := range x {
			out = append(out, outlined(e, o, depth+1))
		}
		return out
	case map[string]any:
		if deep {
			return Passed('{')
		}
		out := map[string]any{}
		for k, e := range x {
			out[k] = outlined(e, o, depth+1)
		}
		return out
	}
	return v
}

// check compares Decode with want on text: the same value, or both an error.
func check(t *testing.T, name string, text []byte, o Options, want any, wantErr error) {
	t.Helper()
	got, err := Decode(text, o)
	short := string(text[:min(len(text), 60)])
	if (err != nil) != (wantErr != nil) {
		t.Errorf("%s: %q: error %v, want %v", name, short, err, wantErr)
		return
	}
	if err == nil && !reflect.DeepEqual(got, want) {
		t.Errorf("%s: %q:\ngot  %#v\nwant %#v", name, short, got, want)
	}
}

// compare checks one text against encoding/json under every option set:
// json.Unmarshal for the zero Options, jsonschema.UnmarshalJSON (which the
// validator decodes with) for Numbers, the token oracle for ordered
// objects, and for the bounded shape only valid text, which is all it
// promises to read.
func compare(t *testing.T, text []byte) {
	t.Helper()
	if got, want := Valid(text), json.Valid(text); got != want {
		t.Errorf("Valid(%q) = %v, json.Valid says %v", text[:min(len(text), 60)], got, want)
	}
	compareWithin(t, text)
	var want any
	wantErr := json.Unmarshal(text, &want)
	check(t, "unmarshal", text, unmarshal, want, wantErr)
	// Passed over, a number past float64's range is refused as Decode
	// refuses it (1e400 inside an outlined array was valid).
	check(t, "outline 2, float64", text, Options{Outline: 2}, outlined(want, Options{Outline: 2}, 0), wantErr)
	compareReader(t, text, want, wantErr)
	want, wantErr = jsonschema.UnmarshalJSON(bytes.NewReader(text))
	check(t, "numbers", text, numbers, want, wantErr)
	check(t, "shared", text, shared, want, wantErr)
	for _, o := range outlines {
		check(t, fmt.Sprint("outline ", o.Outline), text, o, outlined(want, o, 0), wantErr)
	}
	want, wantErr = oracle(text, ordered)
	check(t, "ordered", text, ordered, want, wantErr)
	if json.Valid(text) {
		want, wantErr = oracle(text, shape)
		check(t, "shape", text, shape, want, wantErr)
	}
}

func TestDecodeTricky(t *testing.T) {
	var long, objs []string
	for i := range 120 {
		long = append(long, fmt.Sprintf(`"s%d ]}[{ \" \\"`, i), fmt.Sprint(i), `{"k":[1,{"x":"]"}],"e":1e-3}`, "true", "null", "[]")
		objs = append(objs, fmt.Sprintf(`{"id":%d,"name":"item-%d","tags":["a","b"],"n":{"deep":[[[[[[1]]]]]]}}`, i, i))
	}
	for _, text := range []string{
		"[" + strings.Join(long, ",") + "]", "[" + strings.Join(objs, ",") + "]", "[ " + strings.Join(objs, " ,\n ") + " ]",
		`{}`, `[]`, `{"a":1}`, ` { "a" : [ 1 , 2.5e3 , -0 , -0.5E-2 , true , false , null ] } `,
		`"plain"`, `"esc \" \\ \/ \b \f \n \r \t \u00e9 \ud83d\ude80"`, `"lone \ud800 surrogate"`, "\"bad utf8 \xff\"", "\"caf\xc3\xa9\"",
		`{"a":1,"a":2}`, `{"dup":1,"other":2,"dup":"x"}`, `{"k\"ey":1,"caf\u00e9":2,"":3}`,
		`1e400`, `-1e400`, `1e-400`, `123456789012345678901234567890`,
		`01`, `1.`, `.5`, `+1`, `-`, `1e`, `1e+`, `--1`, `0x10`, `1 2`, `{"a" 1}`, `{"a":1,}`, `[1,]`, `[1 2]`, `{a:1}`,
		`tru`, `nul`, `truex`, `"unterminated`, "\"ctl \x01\"", "\"ctl \x1f\"", `"\x"`, `"\u12"`, `{"a":{"b":{"c":[[[{}]]]}}}`, ``, ` `,
		`{"i":0}`, `{"i":-0,"n":1.50,"big":123456789012345678901234567890,"tiny":1e-400,"huge":1E+400}`,
		`[0.1e1, -2E-0, 1e01]`, `{"s":"x","t":[{"u":null}]}` + " \t\r\n", `1 `, ` {"a":1}x`, `{"a":1}{}`, `[]]`,
		`[` + strings.Repeat(`[`, 9999) + strings.Repeat(`]`, 10000), `[` + strings.Repeat(`[`, 10000) + strings.Repeat(`]`, 10001),
		`{"rows":[` + strings.Repeat(`{"v":"]}"},`, 60) + `{"v":1}],"after":[1]}`,
		strings.Repeat(`{"a":`, 10) + `"x"` + strings.Repeat(`}`, 10),
		strings.Repeat(`[`, 5) + `[1,2,[3]]` + strings.Repeat(`]`, 5),
		`"\uZZZZ"`, `"\u12G4"`, "\"tab\tinside\"", `"\/"`, `"\u0041\u00e9"`, `"\`, `"\u004`, `[1,2`, `{"a":1`, `{"a":}`, `{,}`, `[,1]`,
		`-01`, `1.e5`, `1e5.5`, `{"a":1 "b":2}`, `[1 , 2 ,3 ]`, `{ }`, `[ ]`, `{"":{"":[]}}`, "\xef\xbb\xbf{}", `nulll`, `[true,false,null]`,
	} {
		compare(t, []byte(text))
	}
}

// TestDecodeSharedStrings: with Shared, a string without escapes in valid
// UTF-8 is a view of the text (a tool's input checked against its schema
// is not copied); one with escapes, and every string without Shared, is a
// copy of its own.
func TestDecodeSharedStrings(t *testing.T) {
	text := []byte(`{"plain":"abc","utf8":"caf\u00e9 ok","raw":"café","esc":"a\nb","empty":""}`)
	inside := func(s string) bool {
		p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		start := uintptr(unsafe.Pointer(&text[0]))
		return len(s) > 0 && p >= start && p < start+uintptr(len(text))
	}
	for _, o := range []Options{shared, numbers} {
		v, err := Decode(text, o)
		if err != nil {
			t.Fatal(err)
		}
		m := v.(map[string]any)
		for k, want := range map[string]bool{"plain": o.Shared, "utf8": false, "raw": o.Shared, "esc": false, "empty": false} {
			if s := m[k].(string); inside(s) != want {
				t.Errorf("Shared %v: %s %q is inside the text: %v, want %v", o.Shared, k, s, inside(s), want)
			}
		}
	}
}

// TestDecodeCatalogs: every catalog of the evaluation (real APIs' tool
// schemas), whole and schema by schema.
func TestDecodeCatalogs(t *testing.T) {
	files, err := filepath.Glob("../search/eval/testdata/*.catalog.json")
	if err != nil || len(files) < 10 {
		t.Fatalf("catalogs: %v, %d files", err, len(files))
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		compare(t, raw)
		var c struct {
			Tools []struct {
				InputSchema json.RawMessage `json:"inputSchema"`
			} `json:"tools"`
		}
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatal(err)
		}
		for _, tool := range c.Tools {
			compare(t, tool.InputSchema)
		}
	}
}

// TestDecodeRandom: random documents (deep, wide, with escapes, odd
// numbers and repeated keys), each also with one byte deleted, doubled or
// replaced, which is mostly not JSON any more.
func TestDecodeRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		var b strings.Builder
		randomValue(r, &b, 0)
		text := []byte(b.String())
		compare(t, text)
		if len(text) > 0 {
			i := r.IntN(len(text))
			compare(t, append(text[:i:i], text[i+1:]...))
			compare(t, append(text[:i+1:i+1], text[i:]...))
			mutated := bytes.Clone(text)
			const chars = `{}[],:"\ 0-e.tn`
			mutated[i] = chars[r.IntN(len(chars))]
			compare(t, mutated)
		}
	}
}

var (
	randomNumbers = []string{"0", "-0", "7", "-12", "3.25", "1e3", "-2.5E-7", "1E+2", "123456789012345678901234567890", "1e400", "0.000001", "1.0"}
	randomStrings = []string{"", "a", "name", `q\"uote`, `back\\slash`, `\n\t`, `\u00e9t\u00e9`, `\ud83d\ude00`, `\ud800`, "caf\xc3\xa9", "bad\xff", "]}[{,:", `\/`}
	randomSpace   = []string{"", "", "", " ", "\n  ", "\t", "\r\n"}
)

func randomValue(r *rand.Rand, b *strings.Builder, depth int) {
	space := func() { b.WriteString(randomSpace[r.IntN(len(randomSpace))]) }
	space()
	kind := r.IntN(8)
	if depth > 9 {
		kind %= 4
	}
	switch kind {
	case 0:
		b.WriteString(randomNumbers[r.IntN(len(randomNumbers))])
	case 1:
		b.WriteString(`"` + randomStrings[r.IntN(len(randomStrings))] + `"`)
	case 2:
		b.WriteString([]string{"true", "false", "null"}[r.IntN(3)])
	case 3:
		b.WriteString(`"s` + fmt.Sprint(r.IntN(100)) + `"`)
	case 4, 5:
		b.WriteByte('[')
		n := r.IntN(4)
		if depth < 2 && r.IntN(4) == 0 {
			n = 40 + r.IntN(30) // past MaxElems
		}
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			randomValue(r, b, depth+1)
		}
		space()
		b.WriteByte(']')
	default:
		b.WriteByte('{')
		for i := range r.IntN(5) {
			if i > 0 {
				b.WriteByte(',')
			}
			space()
			// few distinct keys, so that some repeat
			b.WriteString(`"` + []string{"a", "b", "id", `k\"`, "caf\xc3\xa9", ""}[r.IntN(6)] + `"`)
			space()
			b.WriteByte(':')
			randomValue(r, b, depth+1)
		}
		space()
		b.WriteByte('}')
	}
	space()
}

// FuzzValid: Valid agrees with json.Valid.
func FuzzValid(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5e-3,"x\\u00e9"]}`, `[`, `"\u12"`, ` 1 `, `{"a":1,}`, `[[[]]]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := Valid(b), json.Valid(b); got != want {
			t.Errorf("Valid(%q) = %v, json.Valid says %v", b, got, want)
		}
	})
}

// compareWithin checks ValidWithin against json.Valid and the nesting
// encoding/json's tokens count: valid text is valid within the levels it
// nests, and deep under fewer; invalid text is never valid.
func compareWithin(t *testing.T, text []byte) {
	t.Helper()
	short := text[:min(len(text), 60)]
	levels := -1
	if json.Valid(text) {
		levels = 0
		dec := json.NewDecoder(bytes.NewReader(text))
		dec.UseNumber()
		for depth := 0; ; {
			tok, err := dec.Token()
			if err != nil {
				break
			}
			switch tok {
			case json.Delim('['), json.Delim('{'):
				depth++
				levels = max(levels, depth)
			case json.Delim(']'), json.Delim('}'):
				depth--
			}
		}
	}
	for _, within := range []int{1, 2, 5, 1000} {
		valid, deep := ValidWithin(text, within)
		switch {
		case levels < 0 && valid:
			t.Errorf("ValidWithin(%q, %d): valid, json.Valid says not", short, within)
		case levels >= 0 && (valid != (levels <= within) || deep != (levels > within)):
			t.Errorf("ValidWithin(%q, %d) = %v, %v; it nests %d levels", short, within, valid, deep, levels)
		}
	}
}

// TestStringsAsEncodingJSON: strings with escapes, surrogates (paired, lone,
// a high one followed by another escape) and invalid UTF-8, read as
// json.Unmarshal reads them, under every option set; 4,000 random ones
// and each with a byte cut off, doubled or replaced.
func TestStringsAsEncodingJSON(t *testing.T) {
	pieces := []string{"a", "Z ", `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u0041`, `\u00e9`, `\u0000`, `\u001f`,
		`\uffff`, `\uFFFD`, `\ud83d`, `\ude00`, `\ud83d\ude00`, `\uD83D\uDE00`, `\udbff\udfff`, `\ud800\u0041`, `\ud800\ud800`,
		`\ude00\ud83d`, `\ud800\u`, `\ud800\uZZZZ`, `\ud800\\`, `\u12`, `\u12G4`, `\'`, `\x`, `\U0041`, `\`, "\xff", "\xc3",
		"\xc3\xa9", "\xe2\x82", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xf0\x9f\x98", "\xed\xa0\x80", "\xc0\xaf", "\x7f", "é", "€"}
	r := rand.New(rand.NewPCG(3, 4))
	for range 4000 {
		var b strings.Builder
		b.WriteByte('"')
		for range r.IntN(6) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		b.WriteByte('"')
		text := []byte(b.String())
		compare(t, text)
		compare(t, []byte(`{"k`+string(text[1:])+`:[`+b.String()+`]}`))
		i := r.IntN(len(text))
		compare(t, append(text[:i:i], text[i+1:]...))
		compare(t, append(text[:i+1:i+1], text[i:]...))
	}
}

// TestEscapedStringsDecodeOnce: a string with escapes is read in one pass
// into one buffer, not handed to json.Unmarshal (its scan, its decoder and
// reflection: 6% of registering a catalog in a worker).
func TestEscapedStringsDecodeOnce(t *testing.T) {
	text := []byte(`"Lists the repositories.\nSee \"Repos\" \u2014 caf\u00e9 \ud83d\ude00"`)
	want := "Lists the repositories.\nSee \"Repos\" \u2014 caf\u00e9 \U0001F600"
	for _, o := range []Options{{}, shared} {
		if v, err := Decode(text, o); err != nil || v != want {
			t.Fatalf("Decode = %q, %v; want %q", v, err, want)
		}
		// the string's bytes and the interface (json.Unmarshal: 5)
		if n := testing.AllocsPerRun(100, func() { Decode(text, o) }); n > 2 {
			t.Errorf("Decode of an escaped string: %v allocations, want at most 2", n)
		}
	}
}

// TestDecodeBeats: Beat is called after every 4,096th element of the
// arrays and objects decoded (a schema of 100,000 alternatives decoded
// for 0.2 s under GOOS=js where the core's host showed no life), and the
// value is the same.
func TestDecodeBeats(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"a":[`)
	for i := range 10000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"const":%d,"x":"y"}`, i)
	}
	b.WriteString(`],"b":1}`)
	text := []byte(b.String())
	beats := 0
	got, err := Decode(text, Options{Numbers: true, Beat: func() bool { beats++; return true }})
	want, _ := Decode(text, Options{Numbers: true})
	// 9,999 commas between the elements, 10,000 inside them, 1 at the top.
	if err != nil || beats != 20000/4096 || !reflect.DeepEqual(got, want) {
		t.Fatalf("%v, %d beats; want %d, the value decoded without them", err, beats, 20000/4096)
	}
}
