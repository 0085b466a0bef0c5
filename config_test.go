package codemode

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/interopio/code-mode/sandbox/sandboxtest"
)

func TestConfigDefaults(t *testing.T) {
	c, err := Config{}.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	want := limits{Timeout: 30 * time.Second, MemoryLimitMB: 128, MaxToolCalls: 1000, MaxResultChars: 20000}
	if got := c.limits(); got != want {
		t.Fatalf("defaults = %+v, want %+v", got, want)
	}
	if c.Random != rand.Reader {
		t.Fatalf("Random defaults to %T, want crypto/rand's Reader", c.Random)
	}
	custom := Config{Timeout: time.Second, MemoryLimitMB: 1016, MaxToolCalls: 1, MaxResultChars: 100, Random: strings.NewReader("")}
	c, err = custom.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	if got := c.limits(); got != (limits{time.Second, 1016, 1, 100}) || c.Random != custom.Random {
		t.Fatalf("explicit values changed: %+v, Random %T", got, c.Random)
	}
}

func TestConfigInvalid(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want []string
	}{
		{"negative timeout", Config{Timeout: -time.Second}, []string{"Timeout: must be > 0, got -1s (-1000 ms)"}},
		{"sub-millisecond timeout", Config{Timeout: time.Microsecond}, []string{"Timeout: must be at least 1ms, got 1µs (0.001 ms)"}},
		{"huge timeout", Config{Timeout: 25 * time.Hour}, []string{"Timeout: must be at most 24h (86400000 ms), got 25h (90000000 ms)"}},
		{"negative memory", Config{MemoryLimitMB: -1}, []string{"MemoryLimitMB: must be 1..1016 MiB", "got -1"}},
		{"memory beyond the asset's 2 GiB", Config{MemoryLimitMB: 1017}, []string{"MemoryLimitMB: must be 1..1016 MiB (a run's WebAssembly memory is 16 MiB plus twice the limit, and can be at most 2 GiB), got 1017"}},
		{"negative tool calls", Config{MaxToolCalls: -5}, []string{"MaxToolCalls: must be >= 1, got -5"}},
		{"more tool calls than the output can record", Config{MaxToolCalls: 50001}, []string{"MaxToolCalls: must be at most 50000", "got 50001"}},
		{"tiny result budget", Config{MaxResultChars: 99}, []string{"MaxResultChars: must be >= 100", "got 99"}},
		// Past it, `return "<".repeat(1e8)` killed a GOOS=js engine.
		{"result budget past one JavaScript string", Config{MaxResultChars: 1e9}, []string{"MaxResultChars: must be at most 10000000", "got 1000000000"}},
		{"every problem reported", Config{Timeout: -1, MaxToolCalls: -1}, []string{"Timeout:", "MaxToolCalls:"}},
		// Taken for their defaults without a word before.
		{"negative search weight", Config{Search: SearchConfig{Weight: -1}}, []string{"Search.Weight: must be a finite number >= 0 (0: the default 0.1), got -1"}},
		{"NaN search weight", Config{Search: SearchConfig{Weight: math.NaN()}}, []string{"Search.Weight: must be a finite number >= 0", "got NaN"}},
		{"negative min similarity", Config{Search: SearchConfig{MinSimilarity: -0.2}}, []string{"Search.MinSimilarity: must be 0..1, a cosine (0: the default 0.5), got -0.2"}},
		{"min similarity over 1", Config{Search: SearchConfig{MinSimilarity: 1.5}}, []string{"Search.MinSimilarity: must be 0..1", "got 1.5"}},
		{"negative embed timeout", Config{Search: SearchConfig{Timeout: -time.Second}}, []string{"Search.Timeout: must be >= 0 (0: the default 5s (5000 ms)), got -1s (-1000 ms)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.cfg.withDefaults()
			if err == nil {
				t.Fatal("expected an error")
			}
			if !errors.Is(err, ErrInvalidConfig) {
				t.Errorf("error %v does not wrap ErrInvalidConfig", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

// TestValidateConfigAgreesWithNew: ValidateConfig fails exactly when New
// does, and names the same field (the bounds have one owner).
func TestValidateConfigAgreesWithNew(t *testing.T) {
	asset := sandboxtest.Asset(t)
	for _, tc := range []struct {
		name  string
		cfg   Config
		field string // "" = valid
	}{
		{"defaults", Config{}, ""},
		{"largest memory", Config{MemoryLimitMB: 1016}, ""},
		{"memory one over", Config{MemoryLimitMB: 1017}, "MemoryLimitMB"},
		{"memory 3000", Config{MemoryLimitMB: 3000}, "MemoryLimitMB"},
		{"memory 4096", Config{MemoryLimitMB: 4096}, "MemoryLimitMB"},
		{"timeout 24h", Config{Timeout: 24 * time.Hour}, ""},
		{"timeout 25h", Config{Timeout: 25 * time.Hour}, "Timeout"},
		{"tool calls 0 is the default", Config{MaxToolCalls: 0}, ""},
		{"result chars 99", Config{MaxResultChars: 99}, "MaxResultChars"},
		// Tools: not a *ConfigError, the registration's own error.
		{"a tool's bad name", Config{Tools: []Tool{{Name: "bad name", Execute: okTool}}}, "Tools"},
		{"a tool without Execute", Config{Tools: []Tool{{Name: "ok"}}}, "Tools"},
		{"a tool's bad schema", Config{Tools: []Tool{{Name: "ok", Execute: okTool, InputSchema: json.RawMessage(`{"type":"nope"}`)}}}, "Tools"},
		{"a name twice", Config{Tools: []Tool{{Name: "a", Execute: okTool}, {Name: "a", Execute: okTool}}}, "Tools"},
		{"good tools", Config{Tools: []Tool{{Name: "a", Execute: okTool}, {Name: "b.c", Execute: okTool}}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			verr := ValidateConfig(tc.cfg)
			cm, nerr := New(asset, tc.cfg)
			if cm != nil {
				cm.Close()
			}
			if (verr == nil) != (nerr == nil) {
				t.Fatalf("ValidateConfig: %v; New: %v", verr, nerr)
			}
			if tc.field == "" {
				if verr != nil {
					t.Fatalf("unexpected %v", verr)
				}
				return
			}
			var ce *ConfigError
			if tc.field == "Tools" {
				// The refused tool is the last of each row's.
				at := fmt.Sprintf("Tools[%d]: ", len(tc.cfg.Tools)-1)
				if !strings.HasPrefix(nerr.Error(), at) || !errors.Is(nerr, ErrInvalidTool) && !errors.Is(nerr, ErrDuplicateTool) {
					t.Fatalf("New: %v, want a %s error wrapping ErrInvalidTool or ErrDuplicateTool", nerr, at)
				}
			} else if !errors.As(nerr, &ce) || ce.Field != tc.field || !errors.Is(nerr, ErrInvalidConfig) {
				t.Fatalf("New: %v, want a *ConfigError for %s", nerr, tc.field)
			}
			if verr.Error() != nerr.Error() {
				t.Errorf("ValidateConfig says %q, New says %q", verr, nerr)
			}
		})
	}
}

func okTool(context.Context, json.RawMessage, Call) (json.RawMessage, error) { return nil, nil }
