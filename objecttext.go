package codemode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// objectText is what an object made into text reads: "Order: " + order,
// `${order}` and String(order) give "Order: [object Object]", and
// counts[order] counts every order under the key "[object Object]". It is
// JavaScript's rule, so nothing fails: the model read the text in the
// result, or a tool got it in its input, with no word of the mistake.
var objectText = []byte("[object Object]")

const (
	objectTextWarning = `%s: a string with "[object Object]" in it: an object was made into text ("Order: " + order, ` +
		"`${order}`, String(order)); write the property you meant (order.id) or JSON.stringify(order)"
	objectKeyWarning = `%s: a key "[object Object]": an object was used as a property name (counts[order] = ...), ` +
		"so every object is that one key; key by one of its properties (counts[order.id]) or use a Map"
)

// promiseText is a Promise made into text: acc + x in reduce(async (acc,
// x) => ...), whose acc after the first call is that call's Promise, gave
// "[object Promise]50" as the result, with no word.
var promiseText = []byte("[object Promise]")

const promiseTextWarning = `%s: a string with "[object Promise]" in it: a Promise was made into text, not awaited (a tool call, an async function's value, ` +
	"or acc in reduce(async (acc, x) => acc + ...), the last callback's Promise); await it, or add up in a for...of loop"

// objectLogWarning follows the first console line of a run that holds
// "[object Object]": the model reads its logs as it reads its result.
const objectLogWarning = `a console line holds "[object Object]": an object was made into text ("Order: " + order, ` +
	"`${order}`); log it as an argument of its own (console.log(\"Order:\", order)) or write JSON.stringify(order)"

// objectTextNote is the warning for the first "[object Object]" (else
// "[object Promise]") in doc, a
// tool's input or the run's result as JSON, with its path from root, or ""
// when doc has none. JSON writes the text as it is (no character of it is
// escaped), so bytes.Contains finds every one; only then is doc walked.
func objectTextNote(doc []byte, root string) string {
	text, warning := objectText, objectTextWarning
	if !bytes.Contains(doc, text) {
		if text, warning = promiseText, promiseTextWarning; !bytes.Contains(doc, text) {
			return ""
		}
	}
	path, key, ok := objectTextPath(doc, root, text)
	switch {
	case !ok:
		return ""
	case key && warning == objectTextWarning:
		return fmt.Sprintf(objectKeyWarning, path)
	}
	return fmt.Sprintf(warning, path)
}

// isIdentName says whether key is an ASCII name: a path shows it after a
// dot (result.total), any other in brackets, quoted (result["a b"]).
func isIdentName(key string) bool {
	for i := 0; i < len(key); i++ {
		if !isIdentByte(key[i]) || i == 0 && key[i] >= '0' && key[i] <= '9' {
			return false
		}
	}
	return key != ""
}

// objectTextPath walks doc to the first string holding "[object Object]":
// the path of the value (key false), or of the object that has it as a
// key (key true).
func objectTextPath(doc []byte, root string, text []byte) (path string, key, ok bool) {
	type frame struct {
		arr     bool
		i       int
		key     string
		wantKey bool
	}
	var st []frame
	at := func() string {
		p := root
		for _, f := range st {
			switch {
			case f.arr:
				p += "[" + strconv.Itoa(f.i) + "]"
			case isIdentName(f.key):
				p += "." + f.key
			default:
				p += "[" + strconv.Quote(f.key) + "]"
			}
		}
		return p
	}
	// done ends a value: the next of its array, or a key of its object.
	done := func() {
		if n := len(st); n > 0 {
			if st[n-1].arr {
				st[n-1].i++
			} else {
				st[n-1].wantKey = true
			}
		}
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", false, false
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '[', '{':
				st = append(st, frame{arr: t == '[', wantKey: t == '{'})
			default:
				st = st[:len(st)-1]
				done()
			}
		case string:
			if n := len(st); n > 0 && !st[n-1].arr && st[n-1].wantKey {
				if bytes.Contains([]byte(t), text) {
					st = st[:n-1]
					return at(), true, true
				}
				st[n-1].key, st[n-1].wantKey = t, false
				continue
			}
			if bytes.Contains([]byte(t), text) {
				return at(), false, true
			}
			done()
		default:
			done()
		}
	}
}
