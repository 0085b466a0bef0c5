package codemode

import (
	"testing"

	"github.com/interopio/code-mode/sandbox/sandboxtest"
)

// mustNew is New on the test asset (sandboxtest.Asset), closed when
// the test ends: the set-up the package's tests share.
func mustNew(t testing.TB, cfg Config) *CodeMode {
	t.Helper()
	cm, err := New(sandboxtest.Asset(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cm.Close() })
	return cm
}

// mustSession is cm.NewSession(tools...), closed when the test ends.
func mustSession(t testing.TB, cm *CodeMode, tools ...Tool) *Session {
	t.Helper()
	s, err := cm.NewSession(tools...)
	if err != nil {
		t.Fatalf("NewSession: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
