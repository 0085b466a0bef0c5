package codemode

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/interopio/code-mode/internal/trunc"
)

// TestMessageBudgetsAreBytes: a console line and a run's error message are
// cut to 2,000 bytes of UTF-8 (as their doc comments and USAGE say), on a
// character boundary and ending in the mark: 2,000 ASCII characters, about
// 1,000 "é".
func TestMessageBudgetsAreBytes(t *testing.T) {
	s := mustSession(t, mustNew(t, Config{}))
	for _, tc := range []struct {
		name, code string
		text       func(*ExecuteResult) string
		budget     int
	}{
		{"console line, é", `console.log("é".repeat(3000))`, func(r *ExecuteResult) string { return r.Logs[0].Message }, maxLogEntryChars},
		{"console line, ASCII", `console.log("a".repeat(3000))`, func(r *ExecuteResult) string { return r.Logs[0].Message }, maxLogEntryChars},
		{"error message, é", `throw new Error("é".repeat(3000))`, func(r *ExecuteResult) string { return r.Error.Message }, maxErrorChars},
		{"error message, ASCII", `throw new Error("a".repeat(3000))`, func(r *ExecuteResult) string { return r.Error.Message }, maxErrorChars},
	} {
		res, err := s.ExecuteCode(context.Background(), ExecuteCodeInput{Code: tc.code}, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := tc.text(res)
		// The longest cut that fits: at most one character's bytes short.
		if len(got) > tc.budget || len(got) < tc.budget-3 || !utf8.ValidString(got) || !strings.HasSuffix(got, trunc.Mark) {
			t.Errorf("%s: %d bytes (%d characters), valid UTF-8 %v, ending %q; want at most %d bytes, and at least %d, ending in %q",
				tc.name, len(got), utf8.RuneCountInString(got), utf8.ValidString(got), got[max(len(got)-8, 0):], tc.budget, tc.budget-3, trunc.Mark)
		}
	}
}
