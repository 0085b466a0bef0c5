// Command searcheval prints the tool-search figures of each evaluation
// catalog, three lines per catalog:
//
//	SEARCH <catalog> recall@1=… recall@5=… mrr=…
//	PROBES <catalog> empty=<k>/<n>
//	EMPTY <catalog> answers=<k>/<n>
//
// on the held-out split by default (the reported figures), then their sum
// over the four catalogs (SUM heldout ..., in the format of SUM dev3 below). Tune on
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
// -split=heldout3 gives the fourth held-out split, larger (30-33 queries
// and 4-5 probes per catalog), the same way (split=heldout3 in its lines).
//
// -split=dev gives the dev split: five other catalogs (eval.DevIDs:
// asana, box, linode, square, zoom) with queries written blind like the
// held-out ones, meant for tuning, so -v is allowed on it. Their lines have
// the plain format (the catalogs' names tell the split), followed by SUM
// dev .... -split=tune and -split=all list these catalogs after the four
// others; -split=tune ends with SUM dev ... and SUM tune ..., TRAIN's
// total (a design's "545" is its hits@1 + hits@5 there).
//
// -split=dev2 gives the dev2 split: five more catalogs (eval.Dev2IDs:
// trello, mailchimp, hetzner, jira, twilio), written blind by another
// party. It is a validation split, like dev3 below: -v is refused on it,
// -split=tune (tune + dev, the training set) leaves it out, and
// -split=all lists it after the dev catalogs.
//
// -split=dev3 gives the dev3 split: eight more catalogs (eval.Dev3IDs:
// sendgrid, bitbucket, vercel, xero, vimeo, docusign, keycloak, magento)
// written blind by a third party. It is a validation split: -v is refused
// on it, it is not part of -split=tune (-split=all lists it last), and its
// per-catalog lines are followed by the split's sums:
//
//	SUM dev3 n=<queries> hits@1=<k> hits@5=<k> recall@1=… recall@5=… mrr=… empty=<k>/<n> answers=<k>/<n>
//
// (empty: the probes answered with an empty list, as in PROBES; answers:
// the queries answered with an empty list, as in EMPTY.)
// -split=validation gives dev2, dev3, dev4, dev5 and dev6 together, the
// validation set of ranking changes: the lines of their catalogs, a SUM
// line for each, and one for the five (SUM validation ...). -v is refused
// on it too.
//
// -split=dev4 gives the dev4 split: ten more catalogs (eval.Dev4IDs:
// gmail, spotify, docker, shipengine, appveyor, mastodon, apideck,
// launchdarkly, onsched, payrun) written blind in the thirty-ninth session. It is a
// validation split like dev3 (-v refused, not part of -split=tune,
// -split=all lists it after small3), followed by SUM dev4 ...; it is part
// of -split=validation since the coordinator's decision of that session
// (eval/README.md, "The coordinator's decision on validation with dev4").
//
// -split=dev5 gives the dev5 split: seven more catalogs (eval.Dev5IDs:
// apacta, metabase, signl4, monday, paperless, attio, quickbooks; five
// MCP servers of 39-133 tools, two REST APIs of 101 and 290 operations) written blind in the forty-fourth session. A validation
// split like dev4 (-v refused, not part of -split=tune, part of
// -split=validation, -split=all lists it after train4), followed by SUM
// dev5 ... (eval/README.md, "Dev5 split").
//
// -split=dev6 gives the dev6 split: Microsoft 365's MCP server (eval.Dev6IDs:
// ms365, 344 tools over Microsoft Graph), its requests written blind with
// dev5's, brought in in the forty-fifth session. A validation split like
// dev5 (-v refused, part of -split=validation, -split=all lists it after
// dev5), followed by SUM dev6 ... (eval/README.md, "Dev6 split").
//
// -split=train2 gives the train2 split: eight more catalogs (eval.Train2IDs:
// calendar, classroom, plaid, discourse, shutterstock, youtube, postman,
// blogger) written blind in
// the fortieth session. It is a training split like dev (-v allowed),
// not part of -split=tune (whose figures stay comparable), followed by
// SUM train2 ....
//
// -split=train3 gives the train3 split: nine more catalogs (eval.Train3IDs:
// jellyfin, rubrik, netbox, severa, four REST APIs of 387-844 operations;
// antv, hevy, ccxt, mobile, weather, five MCP servers of 6-32 tools)
// written blind in the forty-second session. A training split like train2
// (-v allowed, not part of -split=tune), followed by SUM train3 ....
//
// -split=train4 gives the train4 split: seven more catalogs (eval.Train4IDs:
// connect, drchrono, appstore, three REST APIs of 197-263 operations;
// lunchmoney, bitwarden, grafana, datadog, four MCP servers of 21-59
// tools) written blind in the forty-third session. A training split like
// train2 (-v allowed, not part of -split=tune), followed by SUM train4 ....
//
// -split=small gives the small split: five real MCP servers of 7-14 tools
// (eval.SmallIDs), 8 requests and 3 probes each, written blind. It is a
// validation split: -v is refused on it, it is in neither -split=tune nor
// -split=validation, and its lines are followed by SUM small ....
// -split=small2 gives five more MCP servers of 16-27 tools (eval.Small2IDs),
// written the same way: a held-out split, -v refused, followed by SUM
// small2 ...; no ranking change may be judged on it. -split=small3 gives
// six more MCP servers of 8-45 tools (eval.Small3IDs), written the same
// way: a second validation split like small, -v refused, followed by SUM
// small3 ....
//
// -split=smalltrain gives the smalltrain split: five more MCP servers of
// 2-29 tools (eval.SmallTrainIDs) and two catalogs of several of them
// mounted together (eval.SmallTrainCombos). It is a training split: -v
// is allowed, and its lines are followed by SUM smalltrain ... over the
// five servers (the combined catalogs repeat their queries).
//
// -outputs gives the catalogs of the training splits (-split=tune, dev or
// smalltrain only) output schemas (eval.WithOutputs): TRAIN's, its specs'
// success responses (testdata/outputs.train.json); smalltrain's, what its
// servers declare (testdata/outputs.smalltrain.json: firecrawl's); and
// small's and small3's servers' own, for search37b's look (eval/README.md).
// The lines keep their format; TestTrainOutputs holds the training sums.
//
// -table prints, instead of the lines, what issue 12's closing note
// tabulates: the lexical figures of the four catalogs on the three
// held-out splits, one Markdown row per catalog and split, with whether
// the row meets the targets (eval.TargetRecall1, eval.TargetRecall5).
// -before=<file> puts beside them the figures of an earlier run, read
// from its SEARCH lines (make bench's output, BENCH_ONLY=search node
// bench/run.mjs at an older commit, or searcheval's).
//
// -embed fuses the lexical ranking with an embedder: -embed (or
// -embed=hash) the deterministic stand-in eval.HashEmbed, -embed=wordvec
// the word-vector embedder eval.WordVec, -embed=use the Universal Sentence
// Encoder lite (eval.USE: a real model, run in Node from the npm dev
// dependencies, its vectors cached outside the repository, see -cache); the
// catalog's name in the lines gets "+embed", "+wordvec" or "+use".
// -weight and -minsim override the embedder's fusion weight and the
// similarity a tool needs to be found on semantic grounds alone;
// -usetext=words gives the model eval.UseWords's rewrite of each text (a
// tool's name as its words), as USAGE's recipe does.
package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/interopio/code-mode/internal/search/eval"
)

func main() {
	splitName := flag.String("split", "heldout", "queries to run: heldout, tune, all, old-heldout, heldout2, heldout3, dev, dev2, dev3, dev4, validation, small, small2, smalltrain, small3, train2, train3, train4, dev5 or dev6")
	verbose := flag.Bool("v", false, "list the queries whose first result was wrong")
	var embed embedFlag
	flag.Var(&embed, "embed", "fuse with an embedder: hash (eval.HashEmbed, the default of a bare -embed), wordvec (eval.WordVec) or use (eval.USE)")
	weight := flag.Float64("weight", -1, "the semantic rank's weight in the fusion (default: the embedder's; 0: the product's default)")
	minSim := flag.Float64("minsim", -1, "the similarity a tool needs to be found on semantic grounds alone (default: the embedder's)")
	useText := flag.String("usetext", "raw", "-embed=use: the texts as the product sends them (raw), or as eval.UseWords rewrites them (words)")
	cache := flag.String("cache", "", "-embed=use's vector cache (default: eval.UseCacheFile, under the user's cache directory)")
	table := flag.Bool("table", false, "print the three held-out splits' lexical figures as one Markdown table, a row per catalog and split with whether it meets the targets, instead of the lines")
	outputs := flag.Bool("outputs", false, "give the catalogs the output schemas of testdata/outputs.*.json (TRAIN's specs' success responses, smalltrain's servers' own); -split=tune, dev or smalltrain only")
	beforeFile := flag.String("before", "", "with -table: a file holding the SEARCH lines of an earlier run (make bench's output, or searcheval's on the held-out splits), whose figures go beside each row")
	flag.Parse()
	if *table {
		splitSet := false
		flag.Visit(func(f *flag.Flag) { splitSet = splitSet || f.Name == "split" })
		if *verbose || embed != "" || splitSet {
			fmt.Fprintln(os.Stderr, "searcheval: -table prints the three held-out splits' lexical figures: it takes no -v, -embed or -split")
			os.Exit(2)
		}
		if err := printTable(os.Stdout, *beforeFile); err != nil {
			fmt.Fprintln(os.Stderr, "searcheval:", err)
			os.Exit(1)
		}
		return
	} else if *beforeFile != "" {
		fmt.Fprintln(os.Stderr, "searcheval: -before goes with -table")
		os.Exit(2)
	}
	split, err := eval.ParseSplit(*splitName)
	if err != nil {
		fmt.Fprintln(os.Stderr, "searcheval:", err)
		os.Exit(2)
	}
	// Misses of a held-out or validation split, once seen, tune whoever
	// reads them.
	if *verbose && split.Blind() {
		fmt.Fprintf(os.Stderr, "searcheval: -v lists misses, which tuning must not see on a held-out or validation split (%s); use -split=tune or -split=dev\n", split)
		os.Exit(2)
	}
	if *outputs && !slices.Contains([]eval.Split{eval.Tune, eval.Dev, eval.SmallTrain, eval.Small, eval.Small3}, split) {
		fmt.Fprintf(os.Stderr, "searcheval: -outputs: use -split=tune, dev or smalltrain (or small and small3, for search37b's look), not %s\n", split)
		os.Exit(2)
	}
	sums := map[eval.Split]*sum{}
	// The existing split keeps its line format; the third names itself.
	tag := ""
	if split == eval.HeldOut2 || split == eval.HeldOut3 {
		tag = " split=" + split.String()
	}
	var catalogs []*eval.Catalog
	for _, id := range eval.CatalogsOf(split) {
		c, err := eval.Load(id)
		if err == nil && *outputs {
			err = eval.WithOutputs(c)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "searcheval:", err)
			os.Exit(1)
		}
		catalogs = append(catalogs, c)
	}
	var use *eval.USE
	if embed == "use" {
		var err error
		if *useText != "raw" && *useText != "words" {
			fmt.Fprintf(os.Stderr, "searcheval: -usetext: want raw or words, not %q\n", *useText)
			os.Exit(2)
		}
		if use, err = openUSE(*cache, catalogs, *useText == "words"); err != nil {
			fmt.Fprintln(os.Stderr, "searcheval:", err)
			os.Exit(1)
		}
	}
	setting := func(flagged, own float64) float64 {
		if flagged >= 0 {
			return flagged
		}
		return own
	}
	for _, c := range catalogs {
		id := c.ID
		rank, name := eval.Lexical(c), id
		switch embed {
		case "hash":
			rank, name = eval.FusedWith(c, eval.HashEmbed, setting(*weight, 0), setting(*minSim, eval.HashMinSimilarity)), id+"+embed"
		case "wordvec":
			rank, name = eval.FusedWith(c, eval.WordVecEmbed().Embed, setting(*weight, eval.WordVecWeight), setting(*minSim, eval.WordVecMinSimilarity)), id+"+wordvec"
		case "use":
			embed := use.Embed
			if *useText == "words" {
				embed = func(s string) []float32 { return use.Embed(eval.UseWords(s)) }
			}
			rank, name = eval.FusedWith(c, embed, setting(*weight, eval.UseWeight), setting(*minSim, eval.UseMinSimilarity)), id+"+use"
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
		// A catalog adds to its own split's sum and to the split asked for
		// (the same but for -split=validation); a combined catalog of
		// smalltrain, which repeats its members' queries, to neither. The
		// four catalogs of the held-out splits and of Tune add to the split
		// asked for: SUM tune is TRAIN's total, SUM dev its part written
		// blind (the four catalogs' tune queries were written after their
		// catalogs were read, and overstate designs that need the request
		// to use the catalog's words).
		part, ok := eval.SplitOf(id)
		if !ok && (slices.Contains(heldOuts, split) || split == eval.Tune) {
			part, ok = split, true
		}
		if ok && split != eval.Dev2 && slices.Contains(summed, split) {
			for _, s := range slices.Compact([]eval.Split{part, split}) {
				if sums[s] == nil {
					sums[s] = &sum{}
				}
				sums[s].add(m, empty, len(probes))
			}
		}
	}
	for _, s := range summed {
		if t := sums[s]; t != nil {
			fmt.Printf("SUM %s %s\n", s, t)
		}
	}
}

// openUSE opens the vector cache and embeds what it lacks of the
// catalogs' texts (tools, queries, probes).
func openUSE(path string, catalogs []*eval.Catalog, words bool) (*eval.USE, error) {
	if path == "" {
		var err error
		if path, err = eval.UseCacheFile(); err != nil {
			return nil, err
		}
	}
	use, err := eval.OpenUSE(path)
	if err != nil {
		return nil, err
	}
	var texts []string
	for _, c := range catalogs {
		for _, t := range eval.TextsOf(c) {
			if words {
				t = eval.UseWords(t)
			}
			texts = append(texts, t)
		}
	}
	if n := len(use.Missing(texts)); n > 0 {
		fmt.Fprintf(os.Stderr, "# use: embedding %d texts the cache (%s) lacks\n", n, path)
		if err := use.Prepare(texts); err != nil {
			return nil, err
		}
		s := use.Stats
		fmt.Fprintf(os.Stderr, "# use: model load %d ms, %d texts in %d ms (%.1f ms a text, batches of %d)\n", s.LoadMs, s.Texts, s.EmbedMs, float64(s.EmbedMs)/float64(max(s.Texts, 1)), s.Batch)
	}
	return use, nil
}

// sum adds up the figures of several catalogs: hits rather than means, so
// that a catalog weighs by its number of queries.
type sum struct {
	n, hits1, hits5, probes, empty, answers int
	rr                                      float64
}

func (t *sum) add(m eval.Metrics, empty, probes int) {
	t.n += m.N
	t.hits1 += m.Hits1
	t.hits5 += m.Hits5
	t.rr += m.MRR * float64(m.N)
	t.empty += empty
	t.probes += probes
	t.answers += m.Empty
}

func (t *sum) String() string {
	n := float64(max(t.n, 1))
	return fmt.Sprintf("n=%d hits@1=%d hits@5=%d recall@1=%.2f recall@5=%.2f mrr=%.2f empty=%d/%d answers=%d/%d",
		t.n, t.hits1, t.hits5, float64(t.hits1)/n, float64(t.hits5)/n, t.rr/n, t.empty, t.probes, t.answers, t.n)
}

// summed are the splits that get SUM lines, in print order; -split=dev2
// prints none, dev2 is summed only as a part of -split=validation.
var summed = slices.Concat([]eval.Split{eval.Dev, eval.Tune, eval.Dev2, eval.Dev3, eval.Dev4, eval.Dev5, eval.Dev6, eval.Validation, eval.Small, eval.Small2, eval.SmallTrain, eval.Small3, eval.Train2, eval.Train3, eval.Train4}, heldOuts)

// heldOuts are the held-out splits of the four catalogs of eval.IDs,
// summed over them: SUM heldout3 ... after their lines.
var heldOuts = []eval.Split{eval.HeldOut, eval.HeldOut2, eval.HeldOut3}

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
	case "wordvec", "use":
		*f = embedFlag(v)
	default:
		return fmt.Errorf("want hash, wordvec or use, not %q", v)
	}
	return nil
}
