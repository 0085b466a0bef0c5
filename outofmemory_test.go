package codemode

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestOutOfMemoryInNormalizeCaught: normalize and localeCompare at the
// memory limit throw an InternalError("out of memory") the program can
// catch and keep; it caught QuickJS's "uninitialized" marker, and a
// variable holding it read as "e is not initialized" (a ReferenceError,
// RUNTIME). Uncaught, the run is MEMORY_LIMIT; the methods otherwise work
// as before (their results, length, name, errors of their own).
func TestOutOfMemoryInNormalizeCaught(t *testing.T) {
	// Each bomb works until the limit (seconds of CPU on a loaded
	// machine): a long timeout, as TestConsoleOutOfMemoryValue's; nothing
	// here is about time. localeCompare's strings tie at the first level
	// where they begin, so it normalizes the whole of a (with a + 'b' it
	// compares only what follows their common beginning).
	cm := newTestCodeMode(t, Config{MemoryLimitMB: 16, Timeout: 5 * time.Minute})
	s := mustSession(t, cm)
	const caught = `let saved; try { BOMB } catch (x) { saved = x } return [typeof saved, saved instanceof InternalError, String(saved)]`
	for _, bomb := range []string{
		`'\uFDFA'.repeat(1e6).normalize('NFKD')`,
		`const a = '\u00e9'.repeat(4e6); a.localeCompare('e'.repeat(4e6))`,
	} {
		res := exec(t, s, strings.Replace(caught, "BOMB", bomb, 1), nil)
		if !res.OK || string(res.Result) != `["object",true,"InternalError: out of memory"]` {
			t.Errorf("%s caught: %s %+v", bomb, res.Result, res.Error)
		}
		res = exec(t, s, bomb+"; return 1", nil)
		if res.OK || res.Error.Code != ErrorCodeMemoryLimit || !strings.HasPrefix(res.Error.Message, "out of memory (the run's memory limit is 16 MB") {
			t.Errorf("%s uncaught: %s %+v, want MEMORY_LIMIT", bomb, res.Result, res.Error)
		}
	}
	res := exec(t, s, `let e; try { 'a'.normalize('X') } catch (x) { e = x.name }
return ['\u0041\u030A'.normalize(), 'Å'.normalize('NFD').length, 'a'.localeCompare('b'), 'b'.localeCompare('a'), String.prototype.normalize.length, String.prototype.localeCompare.length, String.prototype.normalize.name, e]`, nil)
	if !res.OK || string(res.Result) != `["Å",2,-1,1,0,1,"normalize","RangeError"]` {
		t.Errorf("the methods: %s %+v", res.Result, res.Error)
	}
}

// TestURLsLeaveNoGarbageForTheRun: the prelude's URL keeps nothing of a
// URL the program made and dropped. Its searchParams told it of their
// changes through a WeakMap of the params to a function holding the URL,
// and QuickJS keeps an entry whose value reaches its key while the map
// lives (no ephemerons): every URL stayed for the whole run, about 650
// bytes each and its strings (20,000 small URLs held 13 MB). 500 URLs with
// 8 KB each, over 4 MB made and dropped under a limit of 2 MB, ended
// with MEMORY_LIMIT; searchParams still change their URL (the last row).
// The Proxy's twin is sandbox's TestProxiesLeaveNoGarbageForTheRun.
func TestURLsLeaveNoGarbageForTheRun(t *testing.T) {
	cm := newTestCodeMode(t, Config{MemoryLimitMB: 2, Timeout: 5 * time.Minute})
	s := mustSession(t, cm)
	pad := `"p".repeat(8192) + i`
	for _, c := range []struct{ kind, one, want string }{
		{"a URL", `const u = new URL("http://x/" + ` + pad + ` + "?q=1"); n += u.searchParams.get("q").length`, "500"},
		{"a URL whose searchParams changed", `const u = new URL("http://x/" + ` + pad + ` + "?q=1"); u.searchParams.set("q", "r"); n += u.search === "?q=r"`, "500"},
		{"a URL made from another", `const u = new URL("b?q=1", new URL("http://x/" + ` + pad + `)); n += u.searchParams.size`, "500"},
		{"searchParams that change their URL", `const u = new URL("http://x/a?q=1"); u.searchParams.append("k", i); u.searchParams.delete("q"); if (i === 499) return u.href + " " + n; n++`, `"http://x/a?k=499 499"`},
	} {
		res := exec(t, s, fmt.Sprintf(`let n = 0; for (let i = 0; i < 500; i++) { %s } return n`, c.one), nil)
		if !res.OK || string(res.Result) != c.want {
			t.Errorf("500 x %s, made and dropped under 2 MB: got %s %+v, want %s", c.kind, res.Result, res.Error, c.want)
		}
	}
}
