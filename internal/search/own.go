package search

import "slices"

// A request in the first person ("list my repositories", "star a
// repository I like", "how many API requests do I have left") asks about
// the caller's own account, and many catalogs have a tool for just that
// beside the one that takes any user or owner: GitHub's
// repos.listForAuthenticatedUser beside listForUser, Jira's myself.*, Box's
// "Get current user." beside users.get_users_id. The pronouns are
// stopwords, so the words the ranking matches cannot tell the two apart;
// p.ownScope does.

// firstPerson are the words by which a request speaks of its caller.
var firstPerson = setOf("i", "me", "my", "mine", "myself")

// ownMarks are the terms that make a tool the caller's own: its name
// holds one of name (ForAuthenticatedUser, myself.getLocale), or its
// summary holds user and one of qualifiers ("Get current user.", "List
// events for the authenticated user.").
type ownMarks struct {
	name, qualifiers []uint32
	user             uint32
}

// ownMarksOf returns the terms of ownMarks that the dictionary holds, or
// nil when none can mark a tool.
func ownMarksOf(r *dictionary) *ownMarks {
	m := &ownMarks{}
	for _, w := range []string{"authenticated", "myself"} {
		if id, ok := r.lookup(stem(w)); ok {
			m.name = append(m.name, id)
		}
	}
	if id, ok := r.lookup(stem("user")); ok {
		m.user = id
		for _, w := range []string{"authenticated", "current"} {
			if id, ok := r.lookup(stem(w)); ok {
				m.qualifiers = append(m.qualifiers, id)
			}
		}
	}
	if len(m.name) == 0 && len(m.qualifiers) == 0 {
		return nil
	}
	return m
}

// of reports whether a tool is the caller's own.
func (m *ownMarks) of(d *Doc) bool {
	if overlaps(m.name, d.nameTerms) {
		return true
	}
	summary := d.fields[fieldSummary].ids
	if _, ok := slices.BinarySearch(summary, m.user); !ok || len(m.qualifiers) == 0 {
		return false
	}
	for _, id := range m.qualifiers {
		if _, ok := slices.BinarySearch(summary, id); ok {
			return true
		}
	}
	return false
}
