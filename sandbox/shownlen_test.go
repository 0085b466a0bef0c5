package sandbox

import (
	"encoding/json"
	"os"
	"strconv"
	"testing"
)

// TestShownArrayLenTable: the elements a log line shows of a long array
// are testdata/arraycap.json's shown, which the page's copy
// (SHOWN_ARRAY_LEN in web/src/tojson.mjs, for what a tool threw) is held
// to by web/test/tojson.test.mjs.
func TestShownArrayLenTable(t *testing.T) {
	raw, err := os.ReadFile("../testdata/arraycap.json")
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Shown int `json:"shown"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	if shownArrayLen != strconv.Itoa(c.Shown) {
		t.Errorf("shownArrayLen = %s, testdata/arraycap.json's shown is %d", shownArrayLen, c.Shown)
	}
}
