package codemode

import (
	"encoding/json"
	"os"
	"sort"
	"strings"
	"testing"
)

// The sandbox's URL, URLSearchParams and atob (prelude/url.js, base64.js)
// against the web-platform-tests' own data (testdata/wpt, README.md there):
// every case of each file runs in the sandbox as WPT's harness runs it, and
// the cases that fail must be exactly the ones listed below with why. A
// fixed case fails the test until its line is removed: the count may only
// go down.

// wptHarness holds, per data file, the JavaScript that runs its cases
// (`data` is the file's JSON) and returns [cases, [[key, what differs]...]].
var wptHarness = map[string]string{
	// url/url-constructor.any.js and url-origin.any.js.
	"urltestdata.json": `const props = ["href", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash"];
const cases = data.filter((c) => typeof c === "object"), bad = [];
for (const c of cases) {
  const key = JSON.stringify(c.base === null ? [c.input] : [c.input, c.base]);
  let u;
  try { u = c.base === null ? new URL(c.input) : new URL(c.input, c.base); }
  catch (e) { if (!c.failure || !(e instanceof TypeError)) bad.push([key, "throws " + e.name + ": " + e.message]); continue; }
  if (c.failure) { bad.push([key, "parses as " + JSON.stringify(u.href)]); continue; }
  const diff = props.concat("origin" in c ? ["origin"] : []).filter((p) => u[p] !== c[p]).map((p) => p + " " + JSON.stringify(u[p]) + ", want " + JSON.stringify(c[p]));
  if (diff.length) bad.push([key, diff.join("; ")]);
}
return [cases.length, bad];`,
	// url/url-setters.any.js.
	"setters_tests.json": `let n = 0;
const bad = [];
for (const [attr, cases] of Object.entries(data)) {
  if (attr === "comment") continue;
  for (const c of cases) {
    n++;
    const key = JSON.stringify([attr, c.href, c.new_value]);
    try {
      const u = new URL(c.href);
      u[attr] = c.new_value;
      const diff = Object.keys(c.expected).filter((p) => u[p] !== c.expected[p]).map((p) => p + " " + JSON.stringify(u[p]) + ", want " + JSON.stringify(c.expected[p]));
      if (diff.length) bad.push([key, diff.join("; ")]);
    } catch (e) { bad.push([key, "throws " + e.name + ": " + e.message]); }
  }
}
return [n, bad];`,
	// url/percent-encoding.window.js, UTF-8 (the URL API's only encoding).
	"percent-encoding.json": `const cases = data.filter((c) => typeof c === "object"), bad = [];
for (const c of cases) {
  const u = new URL("https://doesnotmatter.invalid/?" + c.input + "#" + c.input), want = c.output["utf-8"];
  if (u.search !== "?" + want || u.hash !== "#" + want) bad.push([JSON.stringify(c.input), JSON.stringify([u.search, u.hash])]);
}
return [cases.length, bad];`,
	// url/urlencoded-parser.any.js, through URLSearchParams.
	"urlencoded-parser-data.json": `const bad = [];
for (const c of data) {
  const got = JSON.stringify([...new URLSearchParams(c.input)]);
  if (got !== JSON.stringify(c.output)) bad.push([JSON.stringify(c.input), got]);
}
return [data.length, bad];`,
	// html/webappapis/atob/base64.any.js: null is an InvalidCharacterError.
	"base64.json": `const bad = [];
for (const [input, output] of data) {
  let got;
  try { got = atob(input); } catch (e) { got = e.name; }
  const want = output === null ? "InvalidCharacterError" : String.fromCharCode(...output);
  if (got !== want) bad.push([JSON.stringify(input), JSON.stringify(got)]);
}
return [data.length, bad];`,
}

// wptKnown is every case known to fail: file, why, the cases' keys. None
// is known now (session 39: drive letters, opaque paths' last space, ^ in
// paths, /.// paths, blob: origins, a host mapped to nothing, hostless
// host setters); a new failure is listed here with why.
var wptKnown = map[string]map[string][]string{}

func TestWPTData(t *testing.T) {
	s := mustSession(t, newTestCodeMode(t, Config{MaxResultChars: 10_000_000}))
	files := make([]string, 0, len(wptHarness))
	for f := range wptHarness {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			b, err := os.ReadFile("testdata/wpt/" + f)
			if err != nil {
				t.Fatal(err)
			}
			res := exec(t, s, "const data = "+string(b)+";\n"+wptHarness[f], nil)
			if !res.OK {
				t.Fatalf("%+v", res.Error)
			}
			var out struct {
				N   int
				Bad [][2]string
			}
			var raw []json.RawMessage
			if err := json.Unmarshal(res.Result, &raw); err != nil || len(raw) != 2 {
				t.Fatalf("result %.300s: %v", res.Result, err)
			}
			if err := json.Unmarshal(raw[0], &out.N); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(raw[1], &out.Bad); err != nil {
				t.Fatal(err)
			}
			known := map[string]bool{}
			for _, keys := range wptKnown[f] {
				for _, k := range keys {
					known[k] = true
				}
			}
			failed := map[string]bool{}
			var unexpected []string
			for _, b := range out.Bad {
				failed[b[0]] = true
				if !known[b[0]] {
					unexpected = append(unexpected, b[0]+"\n    "+b[1])
				}
			}
			var fixed []string
			for k := range known {
				if !failed[k] {
					fixed = append(fixed, k)
				}
			}
			sort.Strings(fixed)
			t.Logf("%s: %d of %d cases pass", f, out.N-len(out.Bad), out.N)
			if len(unexpected) > 0 {
				t.Errorf("%d cases fail that are not known to:\n  %s", len(unexpected), strings.Join(unexpected, "\n  "))
			}
			if len(fixed) > 0 {
				t.Errorf("%d cases known to fail pass now: remove them from wptKnown:\n  %s", len(fixed), strings.Join(fixed, "\n  "))
			}
		})
	}
}
