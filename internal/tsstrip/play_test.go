package tsstrip

import (
	"os"
	"testing"
)

func TestPlay(t *testing.T) {
	src, _ := os.ReadFile(os.Getenv("PLAY"))
	out, err := Strip(string(src))
	if err != nil {
		t.Fatalf("%d:%d %s", err.Line, err.Column, err.Message)
	}
	t.Log("\n" + out)
}
