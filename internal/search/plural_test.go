package search

import (
	"encoding/json"
	"testing"
)

// TestTwoLetterPlurals: a name's plural of a two-letter noun ("floating_ips",
// "getCommentsByIds") meets a request's singular, while the same plural in
// a schema or a description stays a word of its own, and an initialism
// whose S is a word of its own stays whole.
func TestTwoLetterPlurals(t *testing.T) {
	for in, want := range map[string]string{
		"ids": "id", "ips": "ip", "vms": "vm", "dbs": "db", "prs": "pr", "ads": "ad",
		"dns": "dns", "sms": "sms", "tls": "tls", "cms": "cms", "qos": "qos", "pos": "pos", "mms": "mms", "its": "its",
	} {
		if got := twoLetterPlural(in); got != want {
			t.Errorf("twoLetterPlural(%q) = %q, want %q", in, got, want)
		}
	}
	props := json.RawMessage(`{"type":"object","properties":{"floating_ips":{"type":"array"},"droplet_ids":{"type":"array"}}}`)
	docs := []*Doc{
		NewDoc("servers.listServers", "List servers with the IP of each.", nil),
		NewDoc("floating_ips.getFloatingIps", "Returns all floating addresses.", nil),
	}
	for _, q := range []string{"list every floating IP", "list my floating ips"} {
		wantFirst(t, docs, q, "floating_ips.getFloatingIps")
	}
	// The schema's floating_ips and droplet_ids are passing mentions.
	docs = append(docs, NewDoc("droplets.destroyWithResources", "Destroy a droplet and the resources named.", props))
	for _, q := range []string{"IP", "ID"} {
		if scores, _ := Scores(docs, q); scores[2] != 0 {
			t.Errorf("%q: droplets.destroyWithResources scores %v, want 0 (its schema's plural is not the name's)", q, scores[2])
		}
	}
	if scores, _ := Scores(docs, "ips"); scores[2] == 0 || scores[1] == 0 {
		t.Errorf(`"ips": scores %v, want the schema's plural and the name's both met`, scores)
	}
}

// TestAcronymPlurals: an acronym's plural in a name ("reservedIPs",
// "getURLs") meets a request's singular; cut at the humps it gave "I" and
// "Ps". A word that goes on in small letters ("IPsec") and an acronym
// whose S is a letter of its own ("SMS") stay as they are.
func TestAcronymPlurals(t *testing.T) {
	for in, want := range map[string]string{
		"reservedIPs": "reservedIP", "reservedIPsActions": "reservedIPActions", "getURLs": "getURL",
		"pac.userPACs": "pac.userPAC", "assignIPs_v2": "assignIP_v2",
		"IPsecTunnels": "IPsecTunnels", "sendSMS": "sendSMS", "listIds": "listIds", "Is": "Is", "": "",
	} {
		if got := acronymPlurals(in); got != want {
			t.Errorf("acronymPlurals(%q) = %q, want %q", in, got, want)
		}
	}
	docs := []*Doc{
		NewDoc("droplets.create", "Create a droplet with a public IP address.", nil),
		NewDoc("floatingIPs.list", "List the floating addresses of the account.", nil),
		NewDoc("droplets.list", "List the droplets.", nil),
	}
	for _, q := range []string{"list every IP", "show my IP addresses"} {
		wantFirst(t, docs, q, "floatingIPs.list")
	}
}

// wantFirst checks that docs ranked for q put name first.
func wantFirst(t *testing.T, docs []*Doc, q, name string) {
	t.Helper()
	hits := Rank(docs, q, 10)
	if len(hits) == 0 || docs[hits[0].Index].name != name {
		var got []string
		for _, h := range hits {
			got = append(got, docs[h.Index].name)
		}
		t.Errorf("%q: got %v, want %s first", q, got, name)
	}
}
