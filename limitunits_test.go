package codemode

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestLimitUnitHints: a short timeout or a small memory limit, which a page
// may have meant in seconds or GiB (timeout: 30, memoryLimit: 1, both
// allowed), is named in its run's error with its field and unit: "did not
// finish within 30ms" alone did not say that 30 was read as milliseconds.
// Limits of a second and of 16 MiB or more keep their plain words.
func TestLimitUnitHints(t *testing.T) {
	const fill = "const a = []; for (let i = 0; ; i++) a.push('x' + i)"
	for _, tc := range []struct {
		name     string
		cfg      Config
		code     string
		wantCode string
		want     string
	}{
		{"timeout 30ms, computing", Config{Timeout: 30 * time.Millisecond}, "for (;;) {}", ErrorCodeTimeout,
			"the program did not finish within 30ms (config.timeout: 30, in milliseconds; 30 seconds would be 30000)"},
		{"timeout 500ms, awaiting a tool", Config{Timeout: 500 * time.Millisecond}, "return await tools.slow.wait({})", ErrorCodeTimeout,
			"the program did not finish within 500ms (config.timeout: 500, in milliseconds; 500 seconds would be 500000); it was waiting for the result of tool slow.wait (called at line 1)"},
		{"timeout 1.5ms", Config{Timeout: 1500 * time.Microsecond}, "for (;;) {}", ErrorCodeTimeout,
			"the program did not finish within 1.5ms (config.timeout: 1.5, in milliseconds; 1.5 seconds would be 1500)"},
		{"timeout 1s: plain", Config{Timeout: time.Second}, "for (;;) {}", ErrorCodeTimeout,
			"the program did not finish within 1s"},
		{"memoryLimit 1", Config{MemoryLimitMB: 1}, fill, ErrorCodeMemoryLimit,
			"out of memory (the run's memory limit is 1 MB; config.memoryLimit counts MiB: 1 GiB would be 1024; hold less data at once, e.g. work through it in parts and keep only what the result needs)"},
		{"memoryLimit 16: plain", Config{MemoryLimitMB: 16}, fill, ErrorCodeMemoryLimit,
			"out of memory (the run's memory limit is 16 MB: hold less data at once, e.g. work through it in parts and keep only what the result needs)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hold := func(ctx context.Context, _ json.RawMessage, _ Call) (json.RawMessage, error) {
				<-ctx.Done()
				return nil, ctx.Err()
			}
			tc.cfg.Tools = []Tool{{Name: "slow.wait", Execute: hold}}
			s := mustSession(t, newTestCodeMode(t, tc.cfg))
			res := exec(t, s, tc.code, nil)
			if res.OK || res.Error.Code != tc.wantCode || res.Error.Message != tc.want {
				t.Errorf("got ok=%v %+v\nwant %s %q", res.OK, res.Error, tc.wantCode, tc.want)
			}
			if strings.Count(res.Error.Message, "config.") > 1 {
				t.Errorf("the field named more than once: %q", res.Error.Message)
			}
		})
	}
}
