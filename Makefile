# Code Mode: build, test and benchmark. `make help` lists the targets.
GO        ?= go
GOROOT    := $(shell $(GO) env GOROOT)
JS_EXEC   := $(GOROOT)/lib/wasm/go_js_wasm_exec

.PHONY: help deps example test test-go test-js vet bench

help:
	@echo "make example  - run the example program through the engine"
	@echo "make test     - every test: vet, native Go, GOOS=js Go under Node"
	@echo "make bench    - benchmarks against quickjs-emscripten, as ratios"

# node_modules holds the pinned QuickJS asset and the JS test clients.
deps: node_modules/.package-lock.json
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

example: deps
	$(GO) run ./examples/orders

vet:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (echo "gofmt needed:"; gofmt -l $$(git ls-files '*.go'); exit 1)
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./...

test-go: deps
	$(GO) test -count=1 ./...

# GOOS=js tests run under Node with the toolchain's go_js_wasm_exec.
test-js: deps
	PATH="$(GOROOT)/lib/wasm:$$PATH" GOOS=js GOARCH=wasm $(GO) test -count=1 -exec="$(JS_EXEC)" ./jsbridge/...

test: vet test-go test-js

bench: deps
	node bench/run.mjs
