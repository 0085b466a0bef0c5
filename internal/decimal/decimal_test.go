package decimal

import (
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// The tests compare Number with math/big's Rat, which it replaced, on the
// same strings.

func rat(t *testing.T, s string) *big.Rat {
	t.Helper()
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		t.Fatalf("big.Rat.SetString(%q) failed", s)
	}
	return r
}

func TestParseAcceptsWhatRatAccepts(t *testing.T) {
	rows := []struct {
		in string
		ok bool
	}{
		{"0", true}, {"-0", true}, {"+0", true}, {"12", true}, {"-12.50", true}, {"1.", true}, {".5", true},
		{"007", true}, {"1e3", true}, {"1E+3", true}, {"1e-3", true}, {"2.5e+07", true}, {"1e+21", true},
		{"0e99999999999", true}, {"0.000e-99999999999", true},
		{"1e1000000", true}, {"1e1000001", false}, {"10e1000000", true}, {"1e-1000000", true}, {"1e-1000001", false},
		{"0.1e-999999", true}, {"0.1e-1000000", false}, {"1000e-1000001", false},
		{"1e9223372036854775807", false}, {"1e-9223372036854775808", false}, {"0e9223372036854775808", false},
		{"1.5e-9223372036854775808", false},
		{"", false}, {"-", false}, {"+", false}, {".", false}, {"-.", false}, {"e5", false}, {"1e", false}, {"1e+", false},
		{"1e-", false}, {"1e+-1", false}, {"1e--1", false}, {"1e-+1", false}, {"--1", false}, {"+-1", false}, {"1..2", false},
		{"1.2.3", false}, {"1 ", false}, {" 1", false}, {"NaN", false}, {"+Inf", false}, {"-Inf", false}, {"Infinity", false},
		{"1f", false}, {"1e5.0", false}, {"1ee5", false},
	}
	for _, r := range rows {
		_, ok := Parse(r.in)
		_, ratOK := new(big.Rat).SetString(r.in)
		if ok != r.ok || ok != ratOK {
			t.Errorf("Parse(%q): ok = %v, want %v (big.Rat: %v)", r.in, ok, r.ok, ratOK)
		}
	}
	// Strings of the characters a decimal number is written with.
	rng := rand.New(rand.NewPCG(1, 2))
	const alphabet = "0123456789.eE+-"
	for i := 0; i < 200_000; i++ {
		b := make([]byte, 1+rng.IntN(8))
		for j := range b {
			b[j] = alphabet[rng.IntN(len(alphabet))]
		}
		s := string(b)
		n, ok := Parse(s)
		r, ratOK := new(big.Rat).SetString(s)
		if ok != ratOK {
			t.Fatalf("Parse(%q): ok = %v, big.Rat: %v", s, ok, ratOK)
		}
		if ok && n.Float64() != mustFloat(r) {
			t.Fatalf("Parse(%q).Float64() = %v, big.Rat: %v", s, n.Float64(), mustFloat(r))
		}
	}
}

// Refused although big.Rat reads them: none comes from a JSON document or
// from Go's formatting of a number.
func TestParseRefusesRatsOtherForms(t *testing.T) {
	for _, s := range []string{"1/3", "0x10", "0b101", "0o17", "1_000", "0x1p-2", "1p3", "1e1_0"} {
		if _, ok := Parse(s); ok {
			t.Errorf("Parse(%q) = ok, want a refusal", s)
		}
	}
}

// numbers returns decimal strings: written plainly, with leading and
// trailing zeros, with exponents, near the bounds; some multiples of others.
func numbers(rng *rand.Rand, n int) []string {
	digits := func(k int) string {
		var b strings.Builder
		for i := 0; i < k; i++ {
			b.WriteByte(byte('0' + rng.IntN(10)))
		}
		return b.String()
	}
	sign := func() string { return [...]string{"", "", "-", "+"}[rng.IntN(4)] }
	out := []string{"0", "-0", "1", "-1", "0.1", "0.3", "1e308", "1.7976931348623157e308", "1.8e308", "4.9e-324", "2e-324",
		"2.5e-324", "9007199254740993", "0.30000000000000004", "1e-1000000", "-1e1000000", "123456789012345678901234567890",
		"0.0000000000000000000000000000001", "5e-1", "1e21", "1e+21", "12345678901234567890e-10",
		// Near big.Rat's bound on exponents (slow for big.Rat: a few only).
		"1e-1000002", "-12.5e-999999", "7e999999", "9.99e1000001", "1e1000000"}
	for len(out) < n {
		var s string
		switch rng.IntN(4) {
		case 0: // small integers and halves, which are often multiples of each other
			s = sign() + strconv.Itoa(rng.IntN(200)) + [...]string{"", ".5", ".25", ".0", "00"}[rng.IntN(5)]
		case 1:
			s = sign() + digits(1+rng.IntN(25)) + "." + digits(rng.IntN(25))
		case 2:
			s = sign() + digits(1+rng.IntN(6)) + [...]string{"e", "E", "e+", "e-", "E-"}[rng.IntN(5)] + strconv.Itoa(rng.IntN(40))
		default: // exponents near float64's range
			s = sign() + digits(1+rng.IntN(4)) + "." + digits(rng.IntN(4)) + "e" + strconv.Itoa([...]int{-330, -310, 290, 305}[rng.IntN(4)]+rng.IntN(6))
		}
		out = append(out, s)
	}
	return out
}

func mustFloat(r *big.Rat) float64 {
	f, _ := r.Float64()
	return f
}

func TestNumberAgreesWithRat(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	in := numbers(rng, 3000)
	var ns []*Number
	var rs []*big.Rat
	for _, s := range in {
		n, ok := Parse(s)
		r, ratOK := new(big.Rat).SetString(s)
		if ok != ratOK {
			t.Fatalf("Parse(%q): ok = %v, big.Rat: %v", s, ok, ratOK)
		}
		if !ok {
			continue
		}
		if got, want := n.Sign(), r.Sign(); got != want {
			t.Errorf("%q: Sign() = %d, big.Rat %d", s, got, want)
		}
		if got, want := n.IsInt(), r.IsInt(); got != want {
			t.Errorf("%q: IsInt() = %v, big.Rat %v", s, got, want)
		}
		if got, want := n.Float64(), mustFloat(r); got != want {
			t.Errorf("%q: Float64() = %v, big.Rat %v", s, got, want)
		}
		if r.IsInt() && len(r.Num().String()) < 100_000 {
			if got, want := n.Int64(), r.Num().Int64(); got != want {
				t.Errorf("%q: Int64() = %d, big.Int %d", s, got, want)
			}
			if got, want := n.IntString(), r.Num().String(); got != want {
				t.Errorf("%q: IntString() = %.40s..., big.Int %.40s...", s, got, want)
			}
		}
		if -400 <= n.exp && n.exp <= 400 { // big.Rat is slow on huge powers of ten
			ns, rs = append(ns, n), append(rs, r)
		}
	}
	multiples := 0
	for k := 0; k < 40_000; k++ {
		i, j := rng.IntN(len(ns)), rng.IntN(len(ns))
		if k%4 == 0 { // a multiple of j, written another way
			q := new(big.Rat).Mul(rs[j], new(big.Rat).SetInt64(int64(rng.IntN(1000)-500)))
			s := q.FloatString(30)
			ns[i], _ = Parse(s)
			rs[i] = rat(t, s)
		}
		x, y, rx, ry := ns[i], ns[j], rs[i], rs[j]
		if got, want := x.Cmp(y), rx.Cmp(ry); got != want {
			t.Fatalf("Cmp(%v, %v) = %d, big.Rat %d", rx, ry, got, want)
		}
		if got, want := x.Key() == y.Key(), rx.Cmp(ry) == 0; got != want {
			t.Fatalf("Key(%v) == Key(%v): %v, equal: %v", rx, ry, got, want)
		}
		if ry.Sign() == 0 {
			continue
		}
		want := new(big.Rat).Quo(rx, ry).IsInt()
		if got := x.IsMultipleOf(y); got != want {
			t.Fatalf("IsMultipleOf(%v, %v) = %v, big.Rat %v", rx.FloatString(10), ry.FloatString(10), got, want)
		}
		if want {
			multiples++
		}
	}
	if multiples < 5000 {
		t.Errorf("only %d of the pairs were multiples: the test checks too few", multiples)
	}
}

func TestIsMultipleOf(t *testing.T) {
	rows := []struct {
		x, m string
		want bool
	}{
		{"7.5", "2.5", true}, {"1", "0.1", true}, {"0.3", "0.1", true}, {"0.35", "0.1", false}, {"100", "8", false},
		{"1000", "8", true}, {"0", "0.7", true}, {"-4", "2", true}, {"4", "-2", true}, {"1e308", "0.123456789", false},
		{"1e1000", "1024", true}, {"1e1000", "3", false}, {"1e9", "512", true}, {"1e8", "512", false},
		{"123456789012345678901234567890", "10", true}, {"123456789012345678901234567890", "1234567890123456789012345678901", false},
		{"24691357802469135780246913578", "12345678901234567890123456789", true}, {"19.99", "0.01", true}, {"19.999", "0.01", false},
		// around MaxMultipleOfDigits: a machine word up to 18 digits, the schoolbook remainder past them
		{"123456789012345678e5", "123456789012345678", true}, {"246913578024691356", "123456789012345678", true},
		{"246913578024691357", "123456789012345678", false}, {"999999999999999999000", "999999999999999999", true},
		{"1e40", "999999999999999999", false}, {"1e20", "125000000000000000", true}, {"5e30", "0.000000000000000002", true},
		{"2469135780246913578", "1234567890123456789", true}, {"2469135780246913579", "1234567890123456789", false},
	}
	for _, r := range rows {
		x, _ := Parse(r.x)
		m, _ := Parse(r.m)
		if got := x.IsMultipleOf(m); got != r.want {
			t.Errorf("IsMultipleOf(%s, %s) = %v, want %v", r.x, r.m, got, r.want)
		}
		if want := new(big.Rat).Quo(rat(t, r.x), rat(t, r.m)).IsInt(); want != r.want {
			t.Errorf("big.Rat: %s / %s integer = %v, the row says %v", r.x, r.m, want, r.want)
		}
	}
}
