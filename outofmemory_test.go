package codemode

import (
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
	// here is about time.
	cm := newTestCodeMode(t, Config{MemoryLimitMB: 16, Timeout: 5 * time.Minute})
	s := mustSession(t, cm)
	const caught = `let saved; try { BOMB } catch (x) { saved = x } return [typeof saved, saved instanceof InternalError, String(saved)]`
	for _, bomb := range []string{
		`'\uFDFA'.repeat(1e6).normalize('NFKD')`,
		`const a = '\u00e9'.repeat(4e6); a.localeCompare(a + 'b')`,
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
