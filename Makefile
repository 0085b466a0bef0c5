# Code Mode: build, test and benchmark. `make help` lists the targets.
GO        ?= go
GOROOT    := $(shell $(GO) env GOROOT)
JS_EXEC   := $(CURDIR)/scripts/wasmexec/go_js_wasm_exec
# The module's packages without node_modules: ./... walks into it, where an
# npm package may ship Go code of its own (flatted does) that is not ours to
# vet or test. Expanded when a rule runs, after deps.
GOPKGS     = $$($(GO) list ./... | grep -v /node_modules/)

.PHONY: help deps example test test-go race test-js vet bench

# Every target a person runs carries a "## what it does" comment on its rule
# line; help lists them (TestMakeHelp checks that none is missing).
help: ## list the targets
	@awk 'BEGIN { FS = ":[^#]*## " } /^[a-zA-Z0-9_-]+:[^=]*## / { printf "make %-16s %s\n", $$1, $$2 }' $(MAKEFILE_LIST)

# node_modules holds the pinned QuickJS asset and the JS test clients.
deps: node_modules/.package-lock.json ## install the pinned npm dependencies (npm ci): the QuickJS asset, test clients
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

example: deps ## run the example program through the engine
	$(GO) run ./examples/orders

vet: ## gofmt check, go vet native and GOOS=js
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (echo "gofmt needed:"; gofmt -l $$(git ls-files '*.go'); exit 1)
	$(GO) vet $(GOPKGS)
	GOOS=js GOARCH=wasm $(GO) vet $$(GOOS=js GOARCH=wasm $(GO) list ./... | grep -v /node_modules/)

# go test's default limit ends a whole package's binary at 10 minutes; the root
# package takes a few minutes on an idle 2-core machine and more than 10 on a
# loaded one. Each test that could hang has its own limit; this one only has to
# stay under CI's 30 minutes.
test-go: deps ## the native Go tests, the patched validator copy's (third_party/jsonschema) included
	@echo "test-go: the root package's tests take 4-5 minutes on 2 idle cores (more when loaded); go test prints each package's line when it ends"
	$(GO) test -count=1 -timeout 25m $(GOPKGS)

# The same under the race detector: not part of `make test`, whose CI has
# 30 minutes. In session 32 it took 256 s on the idle 2-core machine (the
# root package 247 s, the others alongside) and 18 minutes for the root
# package alone at a load of 15; it found no race. Run it after a change to
# what runs concurrently: runs, sessions, Close, observers, search, the
# engine's pool.
race: deps ## the native Go tests under the race detector (4 min idle, much more loaded: not part of make test)
	$(GO) test -race -count=1 -timeout 60m $(GOPKGS)

# GOOS=js tests run under Node with the toolchain's go_js_wasm_exec, wrapped
# by scripts/wasmexec to give the Go program its own exports as the loader
# does (jsbridge's fast host imports); the tests also run the fallback path.
# tsstrip's nesting tests run there too: its recursion is on the host's
# stack under GOOS=js, where deeply nested code once ended the engine.
test-js: deps ## the GOOS=js Go tests (jsbridge, tsstrip's nesting limit, the core's own) under Node
	PATH="$(GOROOT)/lib/wasm:$$PATH" GOROOT="$(GOROOT)" JSBRIDGE_EXPECT_FAST=1 GOOS=js GOARCH=wasm $(GO) test -count=1 -exec="$(JS_EXEC)" ./jsbridge/...
	PATH="$(GOROOT)/lib/wasm:$$PATH" GOROOT="$(GOROOT)" GOOS=js GOARCH=wasm $(GO) test -count=1 -exec="$(JS_EXEC)" -run Nesting ./internal/tsstrip/
	PATH="$(GOROOT)/lib/wasm:$$PATH" GOROOT="$(GOROOT)" GOOS=js GOARCH=wasm $(GO) test -count=1 -exec="$(JS_EXEC)" ./wasm/

test: vet test-go test-js test-node test-node-worker test-browser test-bundlers test-firefox test-webkit ## every test: vet, native Go, GOOS=js Go, the JS package under Node (in-thread and worker_threads), the demo in Chromium, the package in Firefox ESR and WebKitGTK

# Builds build/bench-engine.wasm (GOOS=js) and compares it with
# quickjs-emscripten's JS host, then the public API of dist/ (hence build)
# end to end; see bench/README.md.
bench: deps build ## benchmarks against quickjs-emscripten, as ratios
	GO="$(GO)" node bench/run.mjs
	node bench/worker.mjs
	node bench/first-await.mjs

# Cold start (import to first result) of ours next to two peer libraries,
# pinned in bench/peers' own lockfile; medians of fresh processes.
.PHONY: bench-peers
bench-peers: deps build bench/peers/node_modules/.package-lock.json ## cold start, import to first result, against TanStack's and sebastianwessel's QuickJS code modes
	node bench/peers/run.mjs
bench/peers/node_modules/.package-lock.json: bench/peers/package.json bench/peers/package-lock.json
	npm ci --prefix bench/peers --no-audit --no-fund
	@touch $@

# The demo page (demo/) imports dist/index.mjs: build, then serve the
# repository root on DEMO_ADDR (go run ./scripts/serve -h for flags).
DEMO_ADDR ?= 127.0.0.1:8080
.PHONY: demo test-browser check-chromium
demo: build ## build dist/ and serve the demo page on http://127.0.0.1:8080/demo/ (elsewhere: make demo DEMO_ADDR=127.0.0.1:8081)
	$(GO) run ./scripts/serve -addr $(DEMO_ADDR)

# Browser tests of the demo page: Debian's Chromium driven by playwright-core
# (which downloads no browser); the tests start the demo server themselves.
CHROMIUM ?= /usr/bin/chromium
# Twice: the pages with the browser default (the engine in a Worker), then
# on the page's thread (CODE_MODE_WORKER=0; worker.test.mjs compares the two
# modes itself, and csp.test.mjs and extension.test.mjs set each mode themselves, so they run once).
test-browser: check-chromium deps build ## the demo page's tests in headless Chromium (apt-get install chromium), engine in a Worker and on the page's thread
	GO="$(GO)" CHROMIUM="$(CHROMIUM)" node --test web/browser-test/*.test.mjs
	GO="$(GO)" CHROMIUM="$(CHROMIUM)" CODE_MODE_WORKER=0 node --test $(filter-out web/browser-test/worker.test.mjs web/browser-test/csp.test.mjs web/browser-test/extension.test.mjs,$(wildcard web/browser-test/*.test.mjs))

check-chromium: ## check that Debian's Chromium is installed
	@test -x "$(CHROMIUM)" || { echo "test-browser: $(CHROMIUM) is missing. The browser tests need Debian's Chromium:"; echo "    apt-get update && apt-get install -y chromium"; exit 1; }

# The package in a second browser engine: Debian's Firefox ESR (SpiderMonkey:
# its own WebAssembly engine, stacks, Worker and error texts), driven by
# puppeteer-core over WebDriver BiDi, which downloads no browser (playwright-core
# drives only its own patched Firefox). Both builds and both modes, in ~1 min.
FIREFOX ?= /usr/bin/firefox-esr
.PHONY: test-firefox check-firefox
test-firefox: check-firefox deps build ## the package in headless Firefox ESR (apt-get install firefox-esr): both builds, both modes
	FIREFOX="$(FIREFOX)" node --test web/firefox-test/*.test.mjs

check-firefox: ## check that Debian's Firefox ESR is installed
	@test -x "$(FIREFOX)" || { echo "test-firefox: $(FIREFOX) is missing. The Firefox tests drive Debian's Firefox ESR:"; echo "    apt-get update && apt-get install -y firefox-esr"; exit 1; }

# The same cases in a third engine, Safari's: Debian's WebKitGTK
# (JavaScriptCore), its MiniBrowser under Xvfb (it has no headless mode),
# driven over W3C WebDriver by WebKitWebDriver (web/webkit-test/webdriver.mjs;
# playwright-core drives only its own patched WebKit). Both builds and both
# modes, the FDC3 pages and the demo, in ~2-3 min.
WEBKIT_DRIVER ?= /usr/bin/WebKitWebDriver
.PHONY: test-webkit check-webkit
test-webkit: check-webkit deps build ## the package in WebKitGTK, Safari's engine (apt-get install webkit2gtk-driver xvfb): both builds, both modes
	GO="$(GO)" WEBKIT_DRIVER="$(WEBKIT_DRIVER)" node --test web/webkit-test/*.test.mjs

check-webkit: ## check that Debian's WebKitGTK WebDriver and Xvfb are installed
	@test -x "$(WEBKIT_DRIVER)" -a -x /usr/bin/Xvfb || { echo "test-webkit: $(WEBKIT_DRIVER) or /usr/bin/Xvfb is missing. The WebKit tests drive Debian's WebKitGTK under Xvfb:"; echo "    apt-get update && apt-get install -y webkit2gtk-driver xvfb"; exit 1; }

# The JS package (dist/): esbuild bundles the entries of web/entries.mjs
# from web/src; see scripts/build-dist.mjs.
.PHONY: build test-node
build: deps ## the npm package in dist/: Go core (GOOS=js), loaders, types, QuickJS asset
	GO="$(GO)" node scripts/build-dist.mjs

# node:test suites against the built dist/, and the strict tsc checks of
# index.d.ts (web/types-check/usage.ts holds every documented snippet) and
# of the JSDoc-typed sources against it (web/types-check/sources.ts).
# Two test files at a time: the files compute more than they wait (perf29:
# 162 s of CPU against 29 s idle over 23 files), so one at a time left the
# second core of a 2-core machine idle; on a quiet one the in-thread suite
# took 506 s one at a time and 311 s two at a time, the worker suite 437 s
# and 251 s. Servers listen on port 0 and temp files come from mkdtemp, so
# files do not collide.
test-node: build ## build, then the JS package's tests (node --test web/test) and tsc checks
	node_modules/.bin/tsc -p web/types-check/tsconfig.dts.json
	node_modules/.bin/tsc -p web/types-check/tsconfig.src.json
	node_modules/.bin/tsc -p web/types-check
	node_modules/.bin/tsc -p web/types-check/tsconfig.adapters-dts.json
	node_modules/.bin/tsc -p web/types-check/tsconfig.adapters.json
	node_modules/.bin/tsc -p web/types-check/tsconfig.adapters-nodenext.json
	node_modules/.bin/tsc -p web/types-check/tsconfig.adapters-node16.json
	node_modules/.bin/tsc -p web/types-check/tsconfig.fakes.json
	node_modules/.bin/tsc -p web/types-check/tsconfig.global.json
	node_modules/.bin/tsc -p web/types-check/tsconfig.exact.json
	node_modules/.bin/tsc -p web/types-check/tsconfig.node-dts.json
	node --test --test-concurrency=2 web/test/*.test.mjs

# The same suites with every factory in worker mode (worker_threads), unless
# a test sets `worker` itself: both modes pass the same suites. A file whose
# first line is "// @mode-independent: why" reads no mode of the suite's
# (it sets worker itself, compares both modes, or runs no engine: ~150 s of
# CPU, register-parity most of it), so test-node's run of it is the one;
# web/test/modes.test.mjs keeps the marker true.
.PHONY: test-node-worker
test-node-worker: build ## the JS package's tests with every factory in worker mode (CODE_MODE_WORKER=1)
	CODE_MODE_WORKER=1 node --test --test-concurrency=2 $$(grep -L '^// @mode-independent: ' web/test/*.test.mjs)

# The packed package (npm pack ./dist) installed into throwaway Vite, webpack 5,
# Rsbuild, esbuild and Rollup apps and a WXT extension, pinned in web/bundler-test's own lockfile,
# each run in Chromium in worker mode (Rsbuild's also on the page's thread)
# (web/bundler-test/run.test.mjs).
.PHONY: test-bundlers
test-bundlers: check-chromium deps build web/bundler-test/node_modules/.package-lock.json ## the package from its tarball in Vite (dev, build + preview), webpack 5, Rsbuild (dev, build), esbuild and Rollup apps and a WXT extension, in Chromium
	CHROMIUM="$(CHROMIUM)" node --test web/bundler-test/run.test.mjs
web/bundler-test/node_modules/.package-lock.json: web/bundler-test/package.json web/bundler-test/package-lock.json
	npm ci --prefix web/bundler-test --no-audit --no-fund
	@touch $@

# The packed package in a Next.js 16 app (web/nextjs-test/run.test.mjs): one
# Turbopack build, next start, a client component in Chromium and a route
# handler, both engine modes. Opt-in, not part of make test: 359 MB of
# node_modules and about 40 s.
.PHONY: test-nextjs
test-nextjs: check-chromium deps build web/nextjs-test/node_modules/.package-lock.json ## opt-in: the package from its tarball in a Next.js 16 app (Turbopack build, next start), client and route handler, in Chromium
	CHROMIUM="$(CHROMIUM)" node --test web/nextjs-test/run.test.mjs
web/nextjs-test/node_modules/.package-lock.json: web/nextjs-test/package.json web/nextjs-test/package-lock.json
	npm ci --prefix web/nextjs-test --no-audit --no-fund
	@touch $@

# The packed package in test-runner apps (web/runners-test/run.test.mjs):
# Vitest 5 (node, jsdom, happy-dom; browser mode with the Playwright provider
# and the installed Chromium) and Jest 30 (ES modules; CommonJS with
# babel-jest; ts-jest), a tool call in both engine modes. Opt-in, not part of make
# test: 222 MB of node_modules (npm ci about a minute), the tests about 3
# minutes on a loaded 2-core machine.
.PHONY: test-runners
test-runners: check-chromium deps build web/runners-test/node_modules/.package-lock.json ## opt-in: the package from its tarball under Vitest (node, jsdom, happy-dom, browser mode in Chromium) and Jest 30 (ESM, CommonJS with babel-jest, ts-jest)
	CHROMIUM="$(CHROMIUM)" node --test web/runners-test/run.test.mjs
web/runners-test/node_modules/.package-lock.json: web/runners-test/package.json web/runners-test/package-lock.json
	npm ci --prefix web/runners-test --no-audit --no-fund
	@touch $@

# Google's Agent Development Kit running the LLM tools as USAGE.md shows
# (web/adk-test/run.test.mjs: its block, against the fake Gemini API of
# web/test/fakes), both engine modes. Opt-in, not part of make test: 173
# packages (154 MB), a @google/genai 2 of their own beside the root's 3.
.PHONY: test-adk
test-adk: deps build web/adk-test/node_modules/.package-lock.json ## opt-in: USAGE's Google Agent Development Kit (@google/adk) block against a local Gemini API, both engine modes
	node --test web/adk-test/run.test.mjs
web/adk-test/node_modules/.package-lock.json: web/adk-test/package.json web/adk-test/package-lock.json
	npm ci --prefix web/adk-test --no-audit --no-fund
	@touch $@
