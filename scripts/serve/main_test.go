package main

import (
	"net"
	"strings"
	"testing"
)

// TestListenTakenAddress: an address another program holds says how to pick
// another; it said only "bind: address already in use".
func TestListenTakenAddress(t *testing.T) {
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	ln, err := listen(held.Addr().String())
	if err == nil {
		ln.Close()
		t.Fatalf("listen(%s) succeeded on a held address", held.Addr())
	}
	if !strings.Contains(err.Error(), "address already in use") || !strings.Contains(err.Error(), "make demo DEMO_ADDR=127.0.0.1:8081") {
		t.Errorf("listen(%s): %v; want the system's words and how to pick another address", held.Addr(), err)
	}
	free, err := listen("127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen on a free port: %v", err)
	}
	free.Close()
}
