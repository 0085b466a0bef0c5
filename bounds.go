package codemode

// Bounds of the strings that leave the sandbox or come from a tool.
const (
	maxNameChars   = 128
	maxReasonChars = 1000
)
