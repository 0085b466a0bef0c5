package codemode

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"testing"
)

// TestURLHostileSizes: inputs whose cost grew faster than their size.
// A 20,000-character label of 20,000 distinct code points: Punycode took
// O(length x distinct code points) and ran past a minute; the encoding
// is checked whole against Node's punycode (sha256 of the label). Forms
// of invalid UTF-8 decode with one U+FFFD per maximal invalid sequence.
// 100,000 spaces inside a URL: trimming its ends by /[\x00-\x20]+$/ tried
// each space in turn (10,000 took 2.4 s, 40,000 ran past a minute).
func TestURLHostileSizes(t *testing.T) {
	s := mustSession(t, newTestCodeMode(t, Config{MaxResultChars: 1_000_000}))
	res := exec(t, s, `let label = "";
for (let i = 0; i < 20000; i++) label += String.fromCodePoint(0x4e00 + (i * 7919) % 20000);
const host = new URL("http://" + label + ".com/").hostname;
const forms = [["%FFa", "\ufffda"], ["%E0%A0~", "\ufffd~"], ["%C3%A9%FF%", "\u00e9\ufffd%"], ["%F0%9F%98%80%F0%9F", "\u{1F600}\ufffd"], ["+%41%80", " A\ufffd"]];
const spaces = new URL(" http://a/b" + " ".repeat(100000) + "x \n").pathname;
return { host, spaces: spaces === "/b" + "%20".repeat(100000) + "x", forms: forms.map(([q, want]) => { const got = new URLSearchParams("k=" + q.repeat(50000)).get("k"); return got === want.repeat(50000) || q + " gives " + JSON.stringify(got.slice(0, 20)); }) };`, nil)
	if !res.OK {
		t.Fatalf("%+v", res.Error)
	}
	var out struct {
		Host   string
		Spaces bool
		Forms  []any
	}
	if err := json.Unmarshal(res.Result, &out); err != nil {
		t.Fatalf("result %.300s: %v", res.Result, err)
	}
	const label = "52c820dcc8c7837b06c5ae10dbac3f1c668038a34f6775030fad960cf46db1d9" // sha256 of Node's punycode.encode(label)
	if len(out.Host) != len("xn--")+59757+len(".com") || out.Host[:4] != "xn--" || out.Host[len(out.Host)-4:] != ".com" {
		t.Fatalf("host of %d bytes: %.40s...", len(out.Host), out.Host)
	}
	if sum := sha256.Sum256([]byte(out.Host[4 : len(out.Host)-4])); hex.EncodeToString(sum[:]) != label {
		t.Errorf("Punycode differs from Node's: %.40s...", out.Host)
	}
	if !out.Spaces {
		t.Error("a URL with 100,000 spaces inside has another path")
	}
	for _, f := range out.Forms {
		if f != true {
			t.Errorf("%v", f)
		}
	}
}
