//go:build js && wasm

package jsbridge

import (
	"errors"
	"fmt"
	"syscall/js"
)

// Error is a JavaScript exception or promise rejection seen from Go.
type Error struct {
	// Name is the thrown value's name property (TypeError, AbortError, ...)
	// when it has a string one, and empty otherwise (a thrown string, say).
	Name string
	// Message is the thrown value's message property, or String(value) for
	// a value without a string message.
	Message string
	// Value is the thrown value itself.
	Value js.Value
}

// Error returns "Name: Message", as JavaScript's Error.prototype.toString
// does, or the message alone when there is no name. An Error made in Go
// with only Value set describes Value.
func (e *Error) Error() string {
	if e.Name == "" && e.Message == "" && !e.Value.IsUndefined() {
		return ErrorFromJS(e.Value).Error()
	}
	switch {
	case e.Name == "":
		return e.Message
	case e.Message == "":
		return e.Name
	}
	return e.Name + ": " + e.Message
}

// ErrorName returns Name, so that an *Error passed back to JavaScript
// (rejected by NewPromise, thrown by Func) keeps its name.
func (e *Error) ErrorName() string {
	if e.Name == "" && e.Message == "" && !e.Value.IsUndefined() {
		return ErrorFromJS(e.Value).Name
	}
	return e.Name
}

// JSValue returns the thrown value; it makes *Error a js.Wrapper.
func (e *Error) JSValue() js.Value { return e.Value }

// ErrorFromJS describes a thrown or rejected JavaScript value. It never
// throws or panics, whatever the value (a proxy, an object with throwing
// getters, a BigInt).
func ErrorFromJS(v js.Value) *Error {
	e := &Error{Value: v}
	if isObjectLike(v) {
		if n, ok := safeGet(v, "name"); ok && TypeOf(n) == js.TypeString {
			e.Name = n.String()
		}
		if m, ok := safeGet(v, "message"); ok && TypeOf(m) == js.TypeString {
			e.Message = m.String()
			return e
		}
	}
	e.Message = safeString(v, "<unprintable value>")
	if e.Name != "" && e.Message == e.Name {
		e.Message = ""
	}
	return e
}

// errorNames are the built-in error constructors NewError may use: a fixed
// list, so that a name can never select an arbitrary global (new Function
// would be eval).
var errorNames = map[string]bool{
	"Error": true, "TypeError": true, "RangeError": true, "SyntaxError": true,
	"ReferenceError": true, "EvalError": true, "URIError": true,
}

// NewError returns a new JavaScript Error with the message. A built-in name
// (TypeError, RangeError, ...) constructs that class; any other non-empty
// name is set as the error's name property on a plain Error.
func NewError(name, message string) js.Value {
	ctor := errorCtor
	if errorNames[name] {
		ctor = global.Get(name)
	}
	e := ctor.New(message)
	if name != "" && !errorNames[name] {
		e.Set("name", name)
	}
	return e
}

// ErrorValue returns the JavaScript value that stands for err when it goes
// back to JavaScript (a rejection, a throw): the original thrown value when
// err is an *Error, and otherwise a new Error whose message is err.Error()
// and whose name comes from the first error in err's chain with an
// ErrorName() string method ("Error" without one).
func ErrorValue(err error) js.Value {
	if e, ok := err.(*Error); ok && !e.Value.IsUndefined() {
		return e.Value
	}
	name := "Error"
	var named interface{ ErrorName() string }
	if errors.As(err, &named) && named.ErrorName() != "" {
		name = named.ErrorName()
	}
	return NewError(name, err.Error())
}

// Recover turns a panic into an error. Use it deferred, directly:
//
//	func entry() (err error) {
//		defer jsbridge.Recover(&err)
//		...
//	}
//
// A panic carrying a JavaScript exception (js.Error, from a js.Value method
// whose JavaScript threw) becomes an *Error for that exception; any other
// panic becomes an error reading "internal error: <panic value>", which
// wraps the panic value when it is an error.
func Recover(err *error) {
	if r := recover(); r != nil {
		*err = panicError(r)
	}
}

func panicError(r any) error {
	switch p := r.(type) {
	case js.Error:
		return ErrorFromJS(p.Value)
	case *Error:
		return p
	case error:
		return fmt.Errorf("internal error: %w", p)
	}
	return fmt.Errorf("internal error: %v", r)
}

// catch runs f and returns the JavaScript exception it raised as an *Error
// (nil if none). Other panics propagate.
func catch(f func()) (err *Error) {
	defer func() {
		if r := recover(); r != nil {
			je, ok := r.(js.Error)
			if !ok {
				panic(r)
			}
			err = ErrorFromJS(je.Value)
		}
	}()
	f()
	return nil
}
