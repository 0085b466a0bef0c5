package search

import (
	"slices"
	"strings"
	"testing"
)

// TestSearchGeneral: the general vocabulary's groups and phrases bridge a
// user's word to a catalog's, and without it (weight 0, no phrases) the
// same queries rank another tool first.
func TestSearchGeneral(t *testing.T) {
	tests := []struct {
		docs  []*Doc
		query string
		want  string // the first hit
	}{
		{[]*Doc{
			NewDoc("accounts.create", "Creates an account.", nil),
			NewDoc("clients.create", "Creates a client.", nil),
		}, "create a customer", "clients.create"},
		{[]*Doc{
			NewDoc("comments.delete", "Deletes a comment.", nil),
			NewDoc("files.delete", "Deletes a file.", nil),
		}, "delete a document", "files.delete"},
		{[]*Doc{
			NewDoc("servers.archive", "Archives a server.", nil),
			NewDoc("servers.delete", "Deletes a server.", nil),
		}, "get rid of a server", "servers.delete"},
		{[]*Doc{
			NewDoc("projects.delete", "Deletes a project.", nil),
			NewDoc("projects.restore", "Restores a project.", nil),
		}, "bring back a project", "projects.restore"},
		{[]*Doc{
			NewDoc("apps.delete", "Deletes an app.", nil),
			NewDoc("organizations.delete", "Deletes an organization.", nil),
		}, "delete a tenant", "organizations.delete"},
		{[]*Doc{
			NewDoc("accounts.get", "Gets an account.", nil),
			NewDoc("balance.get", "Gets the balance.", nil),
		}, "how much do I owe", "balance.get"},
	}
	// Other tools, so that the words' rarity is like a catalog's.
	others := []*Doc{
		NewDoc("teams.list", "Lists teams.", nil),
		NewDoc("tasks.update", "Updates a task.", nil),
		NewDoc("invoices.send", "Sends an invoice.", nil),
		NewDoc("webhooks.get", "Gets a webhook.", nil),
		NewDoc("labels.create", "Creates a label.", nil),
		NewDoc("reports.list", "Lists reports.", nil),
	}
	first := func(docs []*Doc, query string) string {
		docs = append(slices.Clip(docs), others...)
		hits := Rank(docs, query, 5)
		if len(hits) == 0 {
			return ""
		}
		return docs[hits[0].Index].name
	}
	for _, tt := range tests {
		if got := first(tt.docs, tt.query); got != tt.want {
			t.Errorf("%q: first hit %q, want %q", tt.query, got, tt.want)
		}
	}
	old, oldGeneral := p, general
	defer func() { p, general = old, oldGeneral }()
	p.generalWeight = 0
	general = func() generalVocab { return generalVocab{} }
	for _, tt := range tests {
		if got := first(tt.docs, tt.query); got == tt.want {
			t.Errorf("%q: first hit %q without the general vocabulary too", tt.query, got)
		}
	}
}

// TestGeneralVocab: the text tables read as the 144 groups and 152 phrases
// that were measured (eval/README.md); every line is a group of distinct
// single terms with a first word no other group has, or a phrase of
// lowercase words (as a request is matched: "undo" and "two-factor" are
// one word each, replaced whole), a colon and a meaning.
func TestGeneralVocab(t *testing.T) {
	groups, phrases := generalGroups(generalGroupsText), generalPhrases(generalPhrasesText)
	if len(groups) != 144 || len(phrases) != 152 {
		t.Errorf("%d groups and %d phrases, want 144 and 152", len(groups), len(phrases))
	}
	lines := func(text string) (n int) {
		for line := range strings.Lines(text) {
			if strings.TrimSpace(line) != "" {
				n++
			}
		}
		return n
	}
	if n := lines(generalGroupsText); n != len(groups) {
		t.Errorf("%d group lines read as %d groups", n, len(groups))
	}
	if n := lines(generalPhrasesText); n != len(phrases) || strings.Count(generalPhrasesText, ":") != n {
		t.Errorf("%d phrase lines read as %d phrases; each needs one colon", n, len(phrases))
	}
	names := map[string]bool{}
	for _, g := range groups {
		if names[g[0]] || len(g) < 2 {
			t.Errorf("group %q: first word repeated or fewer than 2 words", g[0])
		}
		names[g[0]] = true
		for k, w := range g {
			if tok := tokenize(w); len(tok) != 1 || w != strings.ToLower(w) || slices.Contains(g[:k], w) {
				t.Errorf("group %q: %q is not one lowercase term (%q) or is repeated", g[0], w, tok)
			}
		}
	}
	for _, ph := range phrases {
		f := strings.Fields(ph.phrase)
		if names[ph.phrase] || len(f) == 0 || ph.phrase != strings.ToLower(strings.Join(f, " ")) || len(tokenize(ph.means)) == 0 {
			t.Errorf("phrase %q -> %q: repeated, not lowercase words apart by one space, or no meaning", ph.phrase, ph.means)
		}
		names[ph.phrase] = true
	}
}
