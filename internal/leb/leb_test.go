package leb

import (
	"bytes"
	"testing"
)

func TestLEB(t *testing.T) {
	for _, tc := range []struct {
		v    uint64
		want []byte
	}{{0, []byte{0}}, {127, []byte{0x7f}}, {128, []byte{0x80, 1}}, {624485, []byte{0xe5, 0x8e, 0x26}}} {
		if got := Unsigned(nil, tc.v); !bytes.Equal(got, tc.want) {
			t.Errorf("Unsigned(%d) = %x, want %x", tc.v, got, tc.want)
		}
	}
	for _, tc := range []struct {
		v    int64
		want []byte
	}{{0, []byte{0}}, {-1, []byte{0x7f}}, {63, []byte{0x3f}}, {64, []byte{0xc0, 0}}, {-64, []byte{0x40}}, {-123456, []byte{0xc0, 0xbb, 0x78}}} {
		if got := Signed(nil, tc.v); !bytes.Equal(got, tc.want) {
			t.Errorf("Signed(%d) = %x, want %x", tc.v, got, tc.want)
		}
	}
}
