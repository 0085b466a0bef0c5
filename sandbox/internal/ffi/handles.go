package ffi

// Handles into the instance's memory. Each is a bare pointer at run time;
// the distinct types carry what comments used to: which struct a pointer
// is, and who frees a value. As in quickjs-emscripten's ffi-types.ts
// (JSRuntimePointer, JSContextPointer, JSValuePointer, JSValueConstPointer):
//
//   - Value is an owned JSValue*: whoever holds it frees it with FreeValue,
//     once. Every wrapper that returns a new value returns a Value.
//   - ValueConst is a borrowed JSValueConst*: an argument of a host call, or
//     an owned Value lent for the duration of a call (Value.Const). It
//     cannot be passed to FreeValue, which is the point: freeing a borrowed
//     value is a double free inside QuickJS.
//
// Zero is "no value" for both (no exception, no result).
type (
	// Runtime is a JSRuntime*.
	Runtime uint32
	// Context is a JSContext*.
	Context uint32
	// Value is an owned JSValue*.
	Value uint32
	// ValueConst is a borrowed JSValueConst*.
	ValueConst uint32
)

// Const lends v for the duration of a call; v keeps its owner.
func (v Value) Const() ValueConst { return ValueConst(v) }
