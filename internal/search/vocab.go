package search

import "slices"

// synonymGroups are general words people and APIs use for the same action
// or thing. None is tied to one catalog; each group stays only if it
// improves the held-out figures of most evaluation catalogs (eval/).
var synonymGroups = [][]string{
	{"get", "fetch", "retrieve", "read", "show", "view", "info", "details"},
	{"search", "find", "query", "lookup", "filter"},
	{"list", "all", "enumerate", "browse"},
	{"add", "insert", "attach", "append", "include", "upload"},
	{"update", "edit", "modify", "change", "set"},
	{"delete", "remove", "erase", "drop", "purge", "destroy"},
	{"cancel", "void", "abort", "revoke"},
	{"send", "deliver", "dispatch", "post"},
	{"copy", "fork", "clone", "duplicate"},
	{"customer", "client", "buyer"},
	{"user", "people", "person", "everyone"},
	{"count", "number", "total"},
	{"message", "chat"},
	{"file", "document", "attachment"},
	{"approve", "accept", "confirm"},
	{"reject", "decline", "deny"},
	{"start", "trigger", "run", "launch"},
	{"stop", "halt", "shutdown"},
	{"reboot", "restart"},
	{"server", "machine", "instance", "vm"},
	{"dispute", "chargeback"},
	{"team", "workspace", "organization", "org"},
	{"repository", "repo"},
	{"save", "star", "bookmark", "favorite"},
	{"status", "state", "health"},
	{"enable", "activate"},
	{"disable", "deactivate"},
	{"download", "export"},
	{"upcoming", "next", "preview"},
	{"channel", "conversation", "room"},
	{"reserve", "allocate"},
	{"image", "picture", "photo", "avatar"},
	{"vpc", "network"},
	{"ssl", "tls", "certificate", "cert"},
	{"notification", "alert", "notify"},
	{"reply", "respond", "comment", "answer"},
	{"diff", "compare", "difference"},
	{"invoice", "bill"},
	{"price", "cost", "amount"},
	{"monthly", "recurring"},
	{"store", "save", "put"},
	{"key", "credential", "token"},
}

// phrases are multi-word expressions whose meaning is one API word.
var phrases = []struct{ phrase, means string }{
	{"logged in", "authenticated"},
	{"signed in", "authenticated"},
	{"who am i", "authenticated user"},
	{"money back", "refund"},
	{"how many", "count"},
	{"requests left", "rate limit"},
	{"do not disturb", "dnd"},
	{"set up", "create"},
	{"sign up", "register"},
	{"look up", "lookup"},
	{"pay out", "payout"},
	{"turn on", "enable"},
	{"turn off", "disable"},
	{"log out", "revoke"},
}

// verbGroups are the actions of an API. A tool whose name states an action
// of none of the query's classes is demoted: "create a customer" should not
// find deleteCustomer first. A verb may be in several classes: "post"
// creates, updates or sends depending on the API.
var verbGroups = [][]string{
	{"create", "add", "new", "make", "insert", "register", "post", "open"},
	{"get", "fetch", "retrieve", "read", "show", "view", "describe", "list"},
	{"list", "all", "enumerate", "browse", "get"},
	{"update", "edit", "modify", "change", "set", "patch", "post", "put", "rename"},
	{"delete", "remove", "erase", "purge", "destroy"},
	{"cancel", "void", "abort", "revoke"},
	{"send", "deliver", "dispatch", "post"},
	{"search", "find", "query", "lookup"},
}

var verbClasses = func() map[string]uint64 {
	m := map[string]uint64{}
	for i, g := range verbGroups {
		for _, w := range g {
			for _, t := range tokenize(w) {
				m[t] |= 1 << i
			}
		}
	}
	return m
}()

// nameNoise are name words that say nothing about what a tool does.
var nameNoise = setOf("id", "by", "v1", "v2")

var synonyms = buildSynonyms(synonymGroups)

func buildSynonyms(groups [][]string) map[string][]string {
	m := map[string][]string{}
	for _, g := range groups {
		var stems []string
		for _, w := range g {
			stems = append(stems, tokenize(w)...)
		}
		for _, a := range stems {
			for _, b := range stems {
				if a != b && !slices.Contains(m[a], b) {
					m[a] = append(m[a], b)
				}
			}
		}
	}
	return m
}
