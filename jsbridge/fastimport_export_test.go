//go:build js && wasm

package jsbridge

// SetFastImports turns the fast host imports (fastimport.go) on or off for
// the instances created afterwards, and returns the previous setting.
func SetFastImports(on bool) (was bool) {
	was = !fastOff
	fastOff = !on
	return was
}

// FastImportsAvailable reports whether new instances get fast host imports.
func FastImportsAvailable() bool {
	_, ok := goImportFunc()
	return ok
}

// SetDirectCalls turns the direct export calls and memory accesses
// (direct.go) on or off for the instances created afterwards, and returns
// the previous setting.
func SetDirectCalls(on bool) (was bool) {
	was = !directOff
	directOff = !on
	return was
}
