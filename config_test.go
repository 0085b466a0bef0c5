package codemode

import (
	"errors"
	"strings"
	"testing"
	"time"
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
	custom := Config{Timeout: time.Second, MemoryLimitMB: 4096, MaxToolCalls: 1, MaxResultChars: 100}
	c, err = custom.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	if got := c.limits(); got != (limits{time.Second, 4096, 1, 100}) {
		t.Fatalf("explicit values changed: %+v", got)
	}
}

func TestConfigInvalid(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want []string
	}{
		{"negative timeout", Config{Timeout: -time.Second}, []string{"Timeout: must be > 0, got -1s"}},
		{"sub-millisecond timeout", Config{Timeout: time.Microsecond}, []string{"Timeout: must be at least 1ms, got 1µs"}},
		{"huge timeout", Config{Timeout: 25 * time.Hour}, []string{"Timeout: must be at most 24h0m0s, got 25h0m0s"}},
		{"negative memory", Config{MemoryLimitMB: -1}, []string{"MemoryLimitMB: must be 1..4096", "got -1"}},
		{"memory beyond wasm32", Config{MemoryLimitMB: 4097}, []string{"MemoryLimitMB: must be 1..4096 (a 32-bit WebAssembly memory holds at most 4 GiB), got 4097"}},
		{"negative tool calls", Config{MaxToolCalls: -5}, []string{"MaxToolCalls: must be >= 1, got -5"}},
		{"tiny result budget", Config{MaxResultChars: 99}, []string{"MaxResultChars: must be >= 100", "got 99"}},
		{"every problem reported", Config{Timeout: -1, MaxToolCalls: -1}, []string{"Timeout:", "MaxToolCalls:"}},
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
