package codemode

import "github.com/interopio/code-mode/sandbox"

// The codes of a failed run, RunError.Code, besides ErrorCodeInvalidInput
// and ErrorCodeToolLimit. They are the sandbox's own codes (the same
// strings), so a result is classified by comparing against these without
// importing the sandbox package.
const (
	// ErrorCodeSyntax: the code does not parse (Line and Column point at
	// the mistake in the model's text).
	ErrorCodeSyntax = string(sandbox.CodeSyntax)
	// ErrorCodeRuntime: the code threw (or rejected) and did not catch it.
	ErrorCodeRuntime = string(sandbox.CodeRuntime)
	// ErrorCodeTimeout: the run went past Config.Timeout.
	ErrorCodeTimeout = string(sandbox.CodeTimeout)
	// ErrorCodeMemoryLimit: the run's heap reached Config.MemoryLimitMB.
	ErrorCodeMemoryLimit = string(sandbox.CodeMemoryLimit)
	// ErrorCodeResultNotSerializable: the returned value cannot be
	// converted to JSON (its toJSON throws, say).
	ErrorCodeResultNotSerializable = string(sandbox.CodeNotSerializable)
)
