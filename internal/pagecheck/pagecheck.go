// Package pagecheck lets the JS package's loader (wasm/api.go) tell the
// core that a tool's schemas were checked already: in worker mode the page
// walks every schema with a copy of the core's check (web/src/schemacheck.mjs,
// held to the same table, testdata/schemacheck.json) before the text crosses
// to the worker, and the worker's core walking it again was a tenth of its
// registration.
//
// Only this module can implement Schemas: its method takes a Token, which
// no package outside the module can name. A Go caller's tools are checked
// whatever their Source is.
package pagecheck

// Token is the argument no package outside this module can write.
type Token struct{}

// Schemas is a Tool's Source that knows whether the tool's schemas were
// walked before they reached the core.
type Schemas interface {
	SchemasChecked(Token) bool
}

// Checked reports whether source says its tool's schemas were walked.
func Checked(source any) bool {
	s, ok := source.(Schemas)
	return ok && s.SchemasChecked(Token{})
}
