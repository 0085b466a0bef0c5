module github.com/interopio/code-mode

go 1.26

require (
	github.com/evanw/esbuild v0.25.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/tetratelabs/wazero v1.12.0
	golang.org/x/text v0.14.0
)

require golang.org/x/sys v0.44.0 // indirect
