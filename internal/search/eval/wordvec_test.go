package eval

import (
	"slices"
	"testing"
)

// TestWordVec: the generated table loads, and its embedder places a
// request nearer the tool that does it than an unrelated tool when the two
// share no word (what lexical ranking cannot do), weighs rare words over
// common ones, and gives nothing for a text without a known word.
func TestWordVec(t *testing.T) {
	w := WordVecEmbed()
	if len(w.words) < 3000 || w.dims != 100 {
		t.Fatalf("table: %d words of %d dimensions, want >= 3000 of 100", len(w.words), w.dims)
	}
	tests := []struct{ query, near, far string }{
		{"change my profile picture", "users.setPhoto\nSet the user profile photo", "reminders.delete\nDeletes a reminder."},
		{"give the customer their money back", "refunds.create\nRefund a charge.", "webhooks.list\nList webhook endpoints."},
		{"shut down the virtual machine", "droplets.poweroff\nPower off a droplet (a server).", "invoices.send\nSend an invoice to a customer."},
	}
	for _, tt := range tests {
		q := w.Embed(tt.query)
		near, far := cosine32(q, w.Embed(tt.near)), cosine32(q, w.Embed(tt.far))
		if near <= far {
			t.Errorf("%q: similarity to %q %.3f, to %q %.3f; want the first higher", tt.query, tt.near, near, tt.far, far)
		}
	}
	idf := func(word string) float32 { return w.idf[w.lookup(word)] }
	if idf("the") >= idf("refund") || idf("get") >= idf("snapshot") {
		t.Errorf("idf the %.2f refund %.2f get %.2f snapshot %.2f: want common words lower", idf("the"), idf("refund"), idf("get"), idf("snapshot"))
	}
	if w.lookup("snapshots") < 0 || w.lookup("zzqxs") >= 0 {
		t.Errorf("lookup: snapshots %d, zzqxs %d; want found, not found", w.lookup("snapshots"), w.lookup("zzqxs"))
	}
	if v := w.Embed("zzqx 42"); slices.ContainsFunc(v, func(x float32) bool { return x != 0 }) {
		t.Errorf("text with no known word: got a non-zero vector")
	}
	for _, tt := range []struct {
		digits, acronyms bool
		want             []string
	}{
		{false, true, []string{"list", "usb", "devices", "for", "jane", "app", "id"}},
		{true, false, []string{"list", "usbdevices", "v2", "for", "jane", "app", "id"}},
	} {
		if got := camelWords("listUSBDevices v2 for Jane's app_id", tt.digits, tt.acronyms); !slices.Equal(got, tt.want) {
			t.Errorf("camelWords(digits %v, acronyms %v): got %q, want %q", tt.digits, tt.acronyms, got, tt.want)
		}
	}
}

func cosine32(a, b []float32) float64 {
	var dot float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
	}
	return dot // both unit length
}
