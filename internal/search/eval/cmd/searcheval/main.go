// Command searcheval prints the tool-search figures of each evaluation
// catalog, three lines per catalog:
//
//	SEARCH <catalog> recall@1=… recall@5=… mrr=…
//	PROBES <catalog> empty=<k>/<n>
//	EMPTY <catalog> answers=<k>/<n>
//
// on the held-out split by default (the reported figures). Tune on
// -split=tune only; -v lists the queries whose first hit was wrong (never
// use it on the held-out split). -split=old-heldout gives the first
// held-out split, now part of tune, for comparison. PROBES: of the queries
// for what the catalog cannot do, how many get an empty answer. EMPTY: of
// the queries that have an expected tool, how many get an empty answer
// (an aggregate, printed on every split).
//
// -split=heldout2 gives the third held-out split, written by a party
// independent of the tuning, with its own probes; its lines name it:
//
//	SEARCH <catalog> split=heldout2 recall@1=… recall@5=… mrr=…
//	PROBES <catalog> split=heldout2 empty=<k>/<n>
//
// and -v is refused on it, so that its misses are never seen while tuning.
//
// -split=dev gives the dev split: five other catalogs (eval.DevIDs:
// asana, box, linode, square, zoom) with queries written blind like the
// held-out ones, meant for tuning, so -v is allowed on it. Their lines have
// the plain format (the catalogs' names tell the split). -split=tune and
// -split=all list these catalogs after the four others.
//
// -split=dev2 is the same for five more catalogs (eval.Dev2IDs: trello,
// mailchimp, hetzner, jira, twilio), written blind by another party; -v is
// allowed on it, and -split=tune and -split=all list them after the dev ones.
//
// -embed fuses the lexical ranking with an embedder: -embed (or
// -embed=hash) the deterministic stand-in eval.HashEmbed, -embed=wordvec
// the word-vector embedder eval.WordVec; the catalog's name in the lines
// gets "+embed" or "+wordvec".
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/interopio/code-mode/internal/search/eval"
)

func main() {
	splitName := flag.String("split", "heldout", "queries to run: heldout, tune, all, old-heldout, heldout2, dev or dev2")
	verbose := flag.Bool("v", false, "list the queries whose first result was wrong")
	var embed embedFlag
	flag.Var(&embed, "embed", "fuse with an embedder: hash (eval.HashEmbed, the default of a bare -embed) or wordvec (eval.WordVec)")
	flag.Parse()
	split, err := eval.ParseSplit(*splitName)
	if err != nil {
		fmt.Fprintln(os.Stderr, "searcheval:", err)
		os.Exit(2)
	}
	// Misses of a held-out split, once seen, tune whoever reads them.
	if *verbose && (split == eval.HeldOut || split == eval.HeldOut2 || split == eval.All) {
		fmt.Fprintf(os.Stderr, "searcheval: -v lists misses, which tuning must not see on a held-out split (%s); use -split=tune, -split=dev or -split=dev2\n", split)
		os.Exit(2)
	}
	// The existing split keeps its line format; the third names itself.
	tag := ""
	if split == eval.HeldOut2 {
		tag = " split=heldout2"
	}
	for _, id := range eval.CatalogsOf(split) {
		c, err := eval.Load(id)
		if err != nil {
			fmt.Fprintln(os.Stderr, "searcheval:", err)
			os.Exit(1)
		}
		rank, name := eval.Lexical(c), id
		switch embed {
		case "hash":
			rank, name = eval.Fused(c, eval.HashEmbed), id+"+embed"
		case "wordvec":
			rank, name = eval.FusedWith(c, eval.WordVecEmbed().Embed, eval.WordVecWeight, eval.WordVecMinSimilarity), id+"+wordvec"
		}
		m := eval.Evaluate(c, split, rank)
		fmt.Printf("SEARCH %s%s %s\n", name, tag, m)
		fmt.Fprintf(os.Stderr, "# %s: %d tools, %d %s queries (%s)\n", id, len(c.Tools), m.N, split, c.Source)
		if *verbose {
			for _, miss := range m.Misses {
				fmt.Fprintln(os.Stderr, "#   ", miss)
			}
		}
		probes := c.ProbesOf(split)
		empty, answered := eval.EmptyProbesOf(probes, rank)
		fmt.Printf("PROBES %s%s empty=%d/%d\n", name, tag, empty, len(probes))
		fmt.Printf("EMPTY %s%s answers=%d/%d\n", name, tag, m.Empty, m.N)
		if *verbose {
			for _, a := range answered {
				fmt.Fprintf(os.Stderr, "#    probe %q got %s\n", a.Query, strings.Join(a.Got, ", "))
			}
		}
	}
}

// embedFlag is -embed: bare, it names the hash stand-in.
type embedFlag string

func (f *embedFlag) String() string   { return string(*f) }
func (f *embedFlag) IsBoolFlag() bool { return true }
func (f *embedFlag) Set(v string) error {
	switch v {
	case "true", "hash":
		*f = "hash"
	case "false":
		*f = ""
	case "wordvec":
		*f = "wordvec"
	default:
		return fmt.Errorf("want hash or wordvec, not %q", v)
	}
	return nil
}
