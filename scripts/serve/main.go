// Command serve is the static file server of the demo page: `make demo`
// runs it from the repository root, which it serves (so the page at
// /demo/ imports the bundle from /dist/).
//
//	go run ./scripts/serve [-addr 127.0.0.1:8080] [-root .]
//
// It sends WebAssembly as application/wasm (so browsers compile it while it
// downloads) and ES modules as text/javascript, marks every response
// Cache-Control: no-cache (a rebuilt bundle is picked up on reload), lists
// no directories and serves no dot files (.git, .ci). It listens on the
// loopback address only unless told otherwise. With -addr 127.0.0.1:0 it
// picks a free port; the line it prints names the real one.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"mime"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// contentTypes are set explicitly: the system MIME tables differ between
// machines and some know neither .mjs nor .wasm.
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".mjs":  "text/javascript; charset=utf-8",
	".json": "application/json",
	".map":  "application/json",
	".wasm": "application/wasm",
	".svg":  "image/svg+xml",
	".png":  "image/png",
	".ico":  "image/x-icon",
	".ts":   "text/plain; charset=utf-8",
	".md":   "text/plain; charset=utf-8",
	".txt":  "text/plain; charset=utf-8",
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on (host:port; port 0 picks a free one)")
	root := flag.String("root", ".", "directory to serve (the repository root)")
	flag.Parse()

	abs, err := filepath.Abs(*root)
	if err != nil {
		log.Fatal(err)
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		log.Fatalf("serve: -root %s is not a directory", *root)
	}
	if _, err := os.Stat(filepath.Join(abs, "dist", "index.mjs")); err != nil {
		log.Printf("serve: warning: %s is missing; run `make build` (the page cannot load the bundle without it)", filepath.Join(abs, "dist", "index.mjs"))
	}
	for ext, typ := range contentTypes {
		_ = mime.AddExtensionType(ext, typ)
	}

	ln, err := listen(*addr)
	if err != nil {
		log.Fatalf("serve: %v", err)
	}
	srv := &http.Server{
		Handler:           logRequests(handler(abs)),
		ReadHeaderTimeout: 10 * time.Second,
	}
	fmt.Printf("Code Mode demo: http://%s/demo/\n", ln.Addr())
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Fatalf("serve: %v", err)
	}
}

// listen listens on addr; an address another program holds says how to
// pick another (the bare "bind: address already in use" named neither
// make demo's DEMO_ADDR nor -addr).
func listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		return nil, fmt.Errorf("%w: another program listens there; pick another address: make demo DEMO_ADDR=127.0.0.1:8081 (go run ./scripts/serve -addr 127.0.0.1:8081), or port 0 for a free one", err)
	}
	return ln, err
}

// handler serves the files under root.
func handler(root string) http.Handler {
	files := http.FileServer(noListing{http.Dir(root)})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		if r.URL.Path == "/" {
			http.Redirect(w, r, "/demo/", http.StatusFound)
			return
		}
		for _, seg := range strings.Split(r.URL.Path, "/") {
			if strings.HasPrefix(seg, ".") {
				http.NotFound(w, r)
				return
			}
		}
		w.Header().Set("Cache-Control", "no-cache")
		if typ, ok := contentTypes[strings.ToLower(path.Ext(r.URL.Path))]; ok {
			w.Header().Set("Content-Type", typ)
		}
		w.Header().Set("X-Content-Type-Options", "nosniff")
		// The demo's WebMCP polyfill (@mcp-b/webmcp-polyfill) refuses a page
		// whose agent cluster is not keyed by origin; Chromium keys by origin
		// by default, Firefox only when the page asks: without this header the
		// demo's courier widget is missing in Firefox.
		w.Header().Set("Origin-Agent-Cluster", "?1")
		files.ServeHTTP(w, r)
	})
}

// noListing is a file system whose directories open only through their
// index.html: a directory without one is "not found", not a listing.
type noListing struct{ fs http.FileSystem }

func (n noListing) Open(name string) (http.File, error) {
	f, err := n.fs.Open(name)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if st.IsDir() {
		idx, err := n.fs.Open(path.Join(name, "index.html"))
		if err != nil {
			f.Close()
			return nil, fs.ErrNotExist
		}
		idx.Close()
	}
	return f, nil
}

// logRequests logs failed requests, which is what a person debugging the
// page wants to see (a missing dist/ file, a typo in an import).
func logRequests(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(rec, r)
		if rec.status >= 400 {
			log.Printf("%d %s %s", rec.status, r.Method, r.URL.Path)
		}
	})
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}
