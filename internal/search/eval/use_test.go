package eval

import (
	"crypto/sha256"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestUSECache: the cache keeps whole records of a file cut short, finds
// what it lacks once per text, and refuses a file of another format.
func TestUSECache(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.vec")
	rec := func(text string, x float32) []byte {
		k := sha256.Sum256([]byte(text))
		b := append([]byte{}, k[:]...)
		for range useDims {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
		}
		return b
	}
	raw := slices.Concat([]byte(useMagic), rec("a", 1), rec("b", 2))
	raw = append(raw, rec("c", 3)[:100]...) // an interrupted append
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	u, err := OpenUSE(path)
	if err != nil {
		t.Fatal(err)
	}
	if u.Len() != 2 || u.Embed("b")[511] != 2 {
		t.Errorf("cache: %d vectors, want 2 (the cut record left out), b's last value %v want 2", u.Len(), u.Embed("b")[511])
	}
	if got := u.Missing([]string{"a", "c", "d", "c"}); !slices.Equal(got, []string{"c", "d"}) {
		t.Errorf("Missing = %q, want [c d]", got)
	}
	if err := u.Prepare([]string{"a", "b"}); err != nil {
		t.Errorf("Prepare with nothing missing: %v, want nil (no Node run)", err)
	}
	other := filepath.Join(dir, "other.vec")
	os.WriteFile(other, []byte("WVEC\x01"), 0o644)
	if _, err := OpenUSE(other); err == nil || !strings.Contains(err.Error(), "delete it") {
		t.Errorf("OpenUSE(another format) = %v, want an error saying to delete it", err)
	}
	if u, err := OpenUSE(filepath.Join(dir, "none.vec")); err != nil || u.Len() != 0 {
		t.Errorf("OpenUSE(missing file) = %v, %v; want an empty cache", u, err)
	}
}

// TestUSEModel runs the real model (npm dev dependency) through use.mjs on
// a few texts the way the product sends them: a request is nearer the tool
// that does it than an unrelated one when they share no word, and the
// vectors are cached. It fails without the dev dependencies (`npm ci`
// installs them, as make's deps target does).
func TestUSEModel(t *testing.T) {
	if _, err := findUp(filepath.Join("node_modules", "@energetic-ai", "model-embeddings-en", "dist", "model.json")); err != nil {
		t.Fatalf("the model's dev dependency is not installed (run npm ci): %v", err)
	}
	path := filepath.Join(t.TempDir(), "use.vec")
	u, err := OpenUSE(path)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ query, near, far string }{
		{"give the customer their money back", "refunds.create\nRefund a charge.", "webhooks.list\nList webhook endpoints."},
		{"who am I logged in as", "users.getAuthenticated\nGet the authenticated user.", "repos.delete\nDelete a repository."},
		{"get rid of that picture", "photos.remove\nRemove a photo.", "customers.create\nCreate a customer."},
	}
	var texts []string
	for _, tt := range tests {
		texts = append(texts, tt.query, tt.near, tt.far)
	}
	if err := u.Prepare(texts); err != nil {
		t.Fatal(err)
	}
	if u.Stats.Texts != len(texts) || u.Len() != len(texts) {
		t.Errorf("Node embedded %d texts, cache holds %d; want %d", u.Stats.Texts, u.Len(), len(texts))
	}
	for _, tt := range tests {
		q := u.Embed(tt.query)
		if len(q) != useDims {
			t.Fatalf("%q: %d dimensions, want %d", tt.query, len(q), useDims)
		}
		near, far := cosine32(q, u.Embed(tt.near)), cosine32(q, u.Embed(tt.far))
		if near <= far {
			t.Errorf("%q: similarity to %q %.3f, to %q %.3f; want the first higher", tt.query, tt.near, near, tt.far, far)
		}
	}
	again, err := OpenUSE(path)
	if err != nil || len(again.Missing(texts)) != 0 {
		t.Errorf("reopened cache: %v, missing %d of %d texts; want all cached", err, len(again.Missing(texts)), len(texts))
	}
}

func TestUseWords(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"refunds.PostRefunds\nCreate a refund.\nIt is final.", "refunds post refunds. Create a refund. It is final."},
		{"slack.slack_post_message\nPost a message", "slack slack post message. Post a message"},
		{"give  the customer\ttheir money back", "give the customer their money back"},
	} {
		if got := UseWords(tt.in); got != tt.want {
			t.Errorf("UseWords(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestTextsOf: what -embed=use prepares holds every query and every probe
// of every split of a catalog; a text left out panics in USE.Embed.
func TestTextsOf(t *testing.T) {
	for _, id := range IDs {
		c, err := Load(id)
		if err != nil {
			t.Fatal(err)
		}
		texts := TextsOf(c)
		want := slices.Concat(c.ProbesOf(HeldOut), c.ProbesOf(HeldOut2), c.ProbesOf(HeldOut3))
		for _, q := range c.Queries {
			want = append(want, q.Query)
		}
		for _, w := range want {
			if !slices.Contains(texts, w) {
				t.Errorf("%s: TextsOf lacks %q", id, w)
			}
		}
	}
}
