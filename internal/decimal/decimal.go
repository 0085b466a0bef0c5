// Package decimal holds JSON numbers exactly, for the JSON Schema validator's
// number keywords (minimum, maximum, their exclusive forms, multipleOf),
// enum, const and uniqueItems: what math/big's Rat did there. math/big
// (with the math/rand it links) was 179 KB of the GOOS=js core's code and
// ~40 KB of its brotli bytes, for comparisons of decimal numbers.
//
// Parse reads what big.Rat.SetString reads of a decimal number: an optional
// sign, digits with an optional '.', an optional exponent ('e' or 'E',
// optional sign, digits), and refuses what it refuses (no digits, an
// exponent past int64, a non-zero number whose exponent, counted from its
// last written digit, is beyond 10^6). JSON numbers and Go's formatting of
// its number types are all of this form. What else big.Rat reads (fractions
// "a/b", 0x/0b/0o prefixes, '_' separators, 'p' exponents) is refused: none
// comes from a JSON document.
package decimal

import (
	"strconv"
	"strings"
)

// maxExp is big.Rat.SetString's bound on the power of ten it scales by.
const maxExp = 1_000_000

// Number is a decimal number: (-1)^neg * coef * 10^exp, coef the significant
// digits without leading or trailing zeros ("" for zero).
type Number struct {
	neg  bool
	coef string
	exp  int64
}

// Parse reads s as a decimal number (see the package comment).
func Parse(s string) (*Number, bool) {
	var n Number
	if s != "" && (s[0] == '+' || s[0] == '-') {
		n.neg = s[0] == '-'
		s = s[1:]
	}
	digits := make([]byte, 0, len(s))
	frac, seen, dot := 0, false, false
	i := 0
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			seen = true
			if c != '0' || len(digits) > 0 {
				digits = append(digits, c)
			}
			if dot {
				frac++
			}
		case c == '.' && !dot:
			dot = true
		default:
			goto exponent
		}
	}
exponent:
	if !seen {
		return nil, false
	}
	var exp int64
	if i < len(s) {
		if s[i] != 'e' && s[i] != 'E' {
			return nil, false
		}
		e := s[i+1:]
		if e != "" && e[0] == '+' {
			e = e[1:]
			if e != "" && (e[0] == '+' || e[0] == '-') {
				return nil, false
			}
		}
		for j := 0; j < len(e); j++ {
			if (e[j] < '0' || e[j] > '9') && !(j == 0 && e[j] == '-') {
				return nil, false
			}
		}
		var err error
		if exp, err = strconv.ParseInt(e, 10, 64); err != nil {
			return nil, false
		}
	}
	if len(digits) == 0 {
		return &Number{}, true
	}
	// big.Rat's bound, on the exponent of the last written digit (int64
	// arithmetic wraps as it does there, into a refusal).
	if e := exp - int64(frac); e > maxExp || e < -maxExp {
		return nil, false
	}
	exp -= int64(frac)
	end := len(digits)
	for digits[end-1] == '0' {
		end--
	}
	n.coef = string(digits[:end])
	n.exp = exp + int64(len(digits)-end)
	return &n, true
}

// Sign is -1, 0 or 1.
func (x *Number) Sign() int {
	switch {
	case x.coef == "":
		return 0
	case x.neg:
		return -1
	}
	return 1
}

// Cmp is -1, 0 or 1 as x is less than, equal to or greater than y.
func (x *Number) Cmp(y *Number) int {
	if sx, sy := x.Sign(), y.Sign(); sx != sy || sx == 0 {
		return compare(int64(sx), int64(sy))
	}
	c := cmpAbs(x, y)
	if x.neg {
		return -c
	}
	return c
}

func cmpAbs(x, y *Number) int {
	// The power of ten of the first digit, then the digits.
	if c := compare(x.exp+int64(len(x.coef)), y.exp+int64(len(y.coef))); c != 0 {
		return c
	}
	return strings.Compare(x.coef, y.coef)
}

func compare(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// IsInt reports whether x is an integer.
func (x *Number) IsInt() bool { return x.coef == "" || x.exp >= 0 }

// IsMultipleOf reports whether x/m is an integer; m must not be zero.
func (x *Number) IsMultipleOf(m *Number) bool {
	if m.coef == "" {
		panic("decimal: division by zero")
	}
	if x.coef == "" {
		return true
	}
	// x/m = (x.coef / m.coef) * 10^d. x.coef does not end in 0, so for
	// d < 0 it is not a multiple of m.coef * 10^-d.
	d := x.exp - m.exp
	if d < 0 {
		return false
	}
	// r * 10^j is a multiple of m.coef for some j only if m.coef/gcd is
	// 2^a * 5^b, and then for j = max(a, b) < 4 * len(m.coef): past that,
	// more zeros change nothing.
	zeros := min(d, 4*int64(len(m.coef))+4)
	if len(m.coef) <= MaxMultipleOfDigits {
		// A machine word, a digit at a time: linear in x's digits. The
		// schoolbook remainder below costs up to 9 * len(m.coef) byte
		// operations a digit: a 30,000-digit value against a
		// 15,000-digit multipleOf took 6.6 s.
		mod, _ := strconv.ParseUint(m.coef, 10, 64)
		var r uint64
		for i := 0; i < len(x.coef); i++ {
			r = (r*10 + uint64(x.coef[i]-'0')) % mod
		}
		for j := int64(0); j < zeros && r != 0; j++ {
			r = r * 10 % mod
		}
		return r == 0
	}
	r := remainder(nil, x.coef, m.coef)
	for j := int64(0); j < zeros && len(r) > 0; j++ {
		r = remainder(r, "0", m.coef)
	}
	return len(r) == 0
}

// MaxMultipleOfDigits is the most significant digits a multipleOf can have
// for IsMultipleOf to take time linear in the value's digits (the
// remainder fits a machine word: r*10+9 < 2^64 for r < 10^18).
const MaxMultipleOfDigits = 18

// Digits is the number of x's significant digits (0 for zero).
func (x *Number) Digits() int { return len(x.coef) }

// remainder returns (r followed by the digits of more) mod m, all of them
// decimal digits without leading zeros ("" is 0): schoolbook, a digit at a
// time, at most nine subtractions each.
func remainder(r []byte, more, m string) []byte {
	for i := 0; i < len(more); i++ {
		if len(r) > 0 || more[i] != '0' {
			r = append(r, more[i])
		}
		for len(r) > len(m) || (len(r) == len(m) && string(r) >= m) {
			r = subtract(r, m)
		}
	}
	return r
}

// subtract returns a - b for a >= b, without leading zeros, in a's array.
func subtract(a []byte, b string) []byte {
	borrow := byte(0)
	for i := 1; i <= len(a); i++ {
		d := a[len(a)-i] - '0'
		var s byte
		if i <= len(b) {
			s = b[len(b)-i] - '0'
		}
		s += borrow
		borrow = 0
		if d < s {
			d += 10
			borrow = 1
		}
		a[len(a)-i] = '0' + d - s
	}
	z := 0
	for z < len(a) && a[z] == '0' {
		z++
	}
	return append(a[:0], a[z:]...)
}

// Float64 is the float64 nearest to x (±Inf past its range), as
// big.Rat.Float64 gives it.
func (x *Number) Float64() float64 {
	if x.coef == "" {
		return 0
	}
	f, _ := strconv.ParseFloat(x.text(), 64)
	return f
}

func (x *Number) text() string {
	s := x.coef + "e" + strconv.FormatInt(x.exp, 10)
	if x.neg {
		return "-" + s
	}
	return s
}

// Int64 is x's low 64 bits as an int64, as big.Int.Int64 gives an integer
// (x must be one).
func (x *Number) Int64() int64 {
	var v uint64
	for i := 0; i < len(x.coef); i++ {
		v = v*10 + uint64(x.coef[i]-'0')
	}
	// 10^64 is a multiple of 2^64: past that many zeros the low bits are 0.
	for j := int64(0); j < x.exp && j < 64; j++ {
		v *= 10
	}
	if x.exp >= 64 {
		v = 0
	}
	if x.neg {
		return -int64(v)
	}
	return int64(v)
}

// IntString writes the integer x in decimal digits (x must be one).
func (x *Number) IntString() string {
	if x.coef == "" {
		return "0"
	}
	s := x.coef + strings.Repeat("0", int(x.exp))
	if x.neg {
		return "-" + s
	}
	return s
}

// Key is the same string for equal numbers and a different one for others.
func (x *Number) Key() string {
	if x.coef == "" {
		return "0"
	}
	return x.text()
}

// Text writes x for a message, as JavaScript's String writes a number
// ("0.25", "1e-7", "1.5e+300", plain digits below 1e21), but exactly: a
// number a float64 cannot hold (1e-400, 1e400, 1.00000000000000000000001)
// reads as written, not as the float64 nearest to it ("0", "1"). Past
// maxDigits significant digits the rest are cut and "…" says so.
func (x *Number) Text(maxDigits int) string {
	if x.coef == "" {
		return "0"
	}
	sign := ""
	if x.neg {
		sign = "-"
	}
	coef, cut := x.coef, ""
	if len(coef) > maxDigits {
		coef, cut = coef[:maxDigits], "…"
	}
	// lead is the power of ten of the first digit.
	lead := x.exp + int64(len(x.coef)) - 1
	switch {
	case lead >= 21 || lead < -6 || cut != "" && lead >= int64(maxDigits):
		s := coef[:1]
		if len(coef) > 1 || cut != "" {
			s += "." + coef[1:]
		}
		exp := strconv.FormatInt(lead, 10)
		if lead >= 0 {
			exp = "+" + exp
		}
		return sign + s + cut + "e" + exp
	case lead < 0:
		return sign + "0." + strings.Repeat("0", int(-lead-1)) + coef + cut
	case int64(len(coef)) <= lead+1:
		return sign + coef + strings.Repeat("0", int(lead+1)-len(coef)) + cut
	default:
		return sign + coef[:lead+1] + "." + coef[lead+1:] + cut
	}
}
