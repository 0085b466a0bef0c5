//go:build js && wasm

package jsbridge

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sync"
	"syscall/js"
)

// ToJSON converts v to JSON with the host's JSON.stringify, so the result is
// exactly what JavaScript would send: toJSON methods run (a Date becomes its
// ISO string), undefined, functions and symbols are left out of objects (and
// become null in arrays). A v that has no JSON form at all (undefined, a
// function, a symbol) gives nil, which encoding/json writes as null.
//
// A value JSON.stringify rejects (a BigInt, a cycle, a throwing toJSON or
// getter) gives an error naming the problem in the engine's words, for
// example "value is not JSON-serialisable: TypeError: Do not know how to
// serialize a BigInt"; it wraps the *Error.
func ToJSON(v js.Value) (json.RawMessage, error) {
	var s js.Value
	if err := catch(func() { s = jsonObj.Call("stringify", v) }); err != nil {
		return nil, fmt.Errorf("value is not JSON-serialisable: %w", err)
	}
	if s.Type() != js.TypeString {
		return nil, nil
	}
	return json.RawMessage(s.String()), nil
}

// FromJSON parses raw with the host's JSON.parse. Empty input gives
// undefined; invalid JSON gives an error wrapping the SyntaxError. Numbers
// are JavaScript numbers: integers beyond 2^53 lose precision.
func FromJSON(raw json.RawMessage) (js.Value, error) {
	if len(raw) == 0 {
		return js.Undefined(), nil
	}
	var v js.Value
	if err := catch(func() { v = jsonObj.Call("parse", string(raw)) }); err != nil {
		return js.Undefined(), fmt.Errorf("invalid JSON: %w", err)
	}
	return v, nil
}

// Strict conversion: the replacer flags values JSON.stringify would drop
// or turn into null without a word (functions, symbols, non-finite numbers).
var (
	strictMu       sync.Mutex
	strictOnce     sync.Once
	strictReplacer js.Func
	strictBad      string
	strictMaxArray int // 0: no limit
	strictArrayLen int // the first array longer than strictMaxArray
	strictArrayAt  string
	// The objects JSON.stringify is inside of, outermost first, each with
	// its path: it visits depth first, so the holder of every replacer call
	// is on this stack, and what is above it is done.
	strictStack []strictFrame
)

type strictFrame struct {
	obj   js.Value
	path  string
	array bool
}

// strictPath is the path of the value that holder `this` has at key k,
// the stack cut back to that holder: ".a", "[3]", `["a b"]`, "" for the
// root (the wrapper JSON.stringify holds it in is on no stack).
func strictPath(this js.Value, k string) string {
	for n := len(strictStack); n > 0; n-- {
		if f := strictStack[n-1]; f.obj.Equal(this) {
			strictStack = strictStack[:n]
			if f.array {
				return f.path + "[" + k + "]"
			}
			if identifier(k) {
				return f.path + "." + k
			}
			q, _ := json.Marshal(k)
			return f.path + "[" + string(q) + "]"
		}
		strictStack[n-1] = strictFrame{}
	}
	strictStack = strictStack[:0]
	return ""
}

// strictCycle says whether stringify threw for a cycle: the replacer met
// an object inside itself (the last frame is one of its holders), which
// JSON then refuses in the engine's own words (V8's "Converting circular
// structure to JSON --> starting at ...", Firefox's "cyclic object
// value"), and the model read the page's. A value that holds itself is
// refused as soon as the replacer has passed it: what else throws (a
// getter, a toJSON, a BigInt) leaves no object twice on the stack.
func strictCycle() bool {
	n := len(strictStack) - 1
	for i := 0; i < n; i++ {
		if strictStack[i].obj.Equal(strictStack[n].obj) {
			return true
		}
	}
	return false
}

// identifier says whether k can follow a dot in a path (tojson.mjs's rule).
func identifier(k string) bool {
	for i, c := range k {
		if !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return k != ""
}

// ArrayTooLongError is ToJSONStrict's error for an array longer than its
// limit. It carries the length and where the array is (Path, under the
// value: ".rows", "[2].tags", "" for the value itself): the words are the
// caller's (the sandbox's, for a tool input), so that every place says
// the same.
type ArrayTooLongError struct {
	Len  int    // the array's length
	Path string // where it is under the value ("" for the value itself)
}

// Error says the value is not JSON data, with Len and Path.
func (e *ArrayTooLongError) Error() string {
	return fmt.Sprintf("value is not JSON data: it holds an array of %d elements at %q", e.Len, e.Path)
}

// StrictMaxDepth is how many objects and arrays deep ToJSONStrict writes a
// value: the sandbox's JSON limit (codemode's maxParseDepth). The replacer
// is Go, so each level of JSON.stringify's recursion calls into Go again,
// on the JavaScript engine's stack: an interceptor's replacement input
// nested 5,000 levels overflowed it inside Go, which ended the Go program;
// past this depth the replacer stops the walk.
const StrictMaxDepth = 1000

// ToJSONStrict is ToJSON for a value that must be JSON data through and
// through: a value anywhere inside it that JSON cannot hold (a function, a
// symbol, NaN or an infinity, a BigInt, a cycle), a v that has no JSON
// form at all, or one nesting past StrictMaxDepth, is an error naming what
// it met. undefined object members
// are absent, as in JSON.stringify.
//
// An array of more than maxArrayLen elements (0: no limit) is an
// *ArrayTooLongError, found before its elements are visited: a sparse
// array of length 2**32-1 would otherwise be written hole by hole, a call
// of the replacer each, holding the thread for hours.
func ToJSONStrict(v js.Value, maxArrayLen int) (json.RawMessage, error) {
	strictOnce.Do(func() {
		strictReplacer = js.FuncOf(func(this js.Value, args []js.Value) (ret any) {
			defer resumeSpin(suspendSpin())
			val := arg(args, 1)
			// Type panics on a BigInt; a panic in a callback would end the
			// Go program. JSON.stringify throws on the BigInt anyway.
			defer func() {
				if recover() != nil {
					ret = val
				}
			}()
			if strictBad != "" {
				return nil // the answer is an error already: visit no more
			}
			switch val.Type() {
			case js.TypeFunction, js.TypeSymbol:
				strictBad = "a " + val.Type().String()
			case js.TypeNumber:
				if f := val.Float(); math.IsNaN(f) || math.IsInf(f, 0) {
					strictBad = "a non-finite number"
				}
			case js.TypeObject:
				path := strictPath(this, arg(args, 0).String())
				if len(strictStack) >= StrictMaxDepth {
					strictBad = "deep"
					return nil // its members are never visited
				}
				array := arrayIsArray.Invoke(val).Bool()
				if n := 0; array && strictMaxArray > 0 {
					if n = val.Length(); n > strictMaxArray {
						strictBad, strictArrayLen, strictArrayAt = "a long array", n, path
						return nil // null: its elements are never visited
					}
				}
				strictStack = append(strictStack, strictFrame{val, path, array})
			}
			return val
		})
	})
	strictMu.Lock()
	defer strictMu.Unlock()
	strictBad, strictMaxArray, strictArrayLen, strictArrayAt = "", maxArrayLen, 0, ""
	// The stack holds the value's objects until the next call: cleared, so
	// that a page's object is not kept alive by its conversion.
	defer func() { clear(strictStack); strictStack = strictStack[:0] }()
	var s js.Value
	if err := catch(func() { s = jsonObj.Call("stringify", v, strictReplacer) }); err != nil {
		if strictCycle() {
			return nil, errors.New("value is not JSON data: it holds a circular reference")
		}
		return nil, fmt.Errorf("value is not JSON-serialisable: %w", err)
	}
	if strictArrayLen > 0 {
		return nil, &ArrayTooLongError{strictArrayLen, strictArrayAt}
	}
	if strictBad == "deep" {
		return nil, errors.New("value is not JSON data: it nests more than 1,000 levels deep")
	}
	if strictBad != "" {
		return nil, fmt.Errorf("value is not JSON data: it holds %s", strictBad)
	}
	if s.Type() != js.TypeString {
		return nil, fmt.Errorf("value is not JSON data: %s has no JSON form", v.Type())
	}
	return json.RawMessage(s.String()), nil
}
