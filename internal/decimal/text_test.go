package decimal

import "testing"

// Text writes what JavaScript's String writes for a number a float64
// holds exactly, and the written value, not its float64, for others.
func TestText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"0", "0"}, {"-0", "0"}, {"0.0e5", "0"},
		{"7", "7"}, {"-12", "-12"}, {"2.50", "2.5"}, {"0.1", "0.1"}, {"1200", "1200"},
		{"0.000001", "0.000001"}, {"1e-7", "1e-7"}, {"1.5e-7", "1.5e-7"},
		{"123456789012345678901", "123456789012345678901"}, {"1e21", "1e+21"}, {"-1.5e300", "-1.5e+300"},
		// what a float64 cannot hold reads as written
		{"1e-400", "1e-400"}, {"-3e-350", "-3e-350"}, {"1e400", "1e+400"}, {"1e999999", "1e+999999"},
		{"1.00000000000000000000001", "1.00000000000000000000001"},
		{"123456789012345678901234567890.5", "1.234567890123456789012345678905e+29"},
		// past maxDigits (40) significant digits the rest are cut, visibly
		{"1." + zeros(60) + "1", "1.000000000000000000000000000000000000000…"},
		{"0.001" + zeros(60) + "1", "0.001000000000000000000000000000000000000000…"},
		{"1" + zeros(60) + "1", "1.000000000000000000000000000000000000000…e+61"},
		{"12345678901234567890123456789012345678901234", "1.234567890123456789012345678901234567890…e+43"},
		{"1234567890123456789.01234567890123456789012", "1234567890123456789.012345678901234567890…"},
	} {
		n, ok := Parse(tc.in)
		if !ok {
			t.Fatalf("Parse(%q) failed", tc.in)
		}
		if got := n.Text(40); got != tc.want {
			t.Errorf("Text(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func zeros(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = '0'
	}
	return string(b)
}
