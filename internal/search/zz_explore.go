package search

import (
	"fmt"
	"os"
	"strconv"
)

// Scratch: read the ranking's knobs from the environment (S38_*).
func envf(name string, dst *float64) {
	if v := os.Getenv("S38_" + name); v != "" {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			panic(name)
		}
		*dst = f
	}
}

func init() {
	for i := range p.fieldWeights {
		envf(fmt.Sprintf("FW%d", i), &p.fieldWeights[i])
		envf(fmt.Sprintf("FB%d", i), &p.fieldB[i])
	}
	envf("K1", &p.k1)
	envf("SYN", &p.synonymWeight)
	envf("PREFIX", &p.prefixWeight)
	envf("VERBPEN", &p.verbPenalty)
	envf("SPEC", &p.specExp)
	envf("SPACE", &p.spaceExp)
	envf("MINCOV", &p.minCoverage)
	envf("UNK", &p.unknownWeight)
	envf("FULL", &p.fullCatalog)
	envf("COMPOUND", &p.compoundWeight)
	envf("CLAUSE", &p.clauseWeight)
	envf("MINCOVFU", &p.minCoverageFirstUnknown)
	envf("DICT", &p.dictWeight)
	envf("GENERAL", &p.generalWeight)
	envf("GENCOVER", &p.generalCover)
	envf("DERIVED", &p.derivedWeight)
	envf("VALUNK", &p.valueUnknown)
	envf("READPEN", &p.readPenalty)
	envf("WEAK", &p.weakWeight)
	envf("MANY", &p.manyNeeds)
	envf("ONE", &p.oneNeeds)
	envf("OWN", &p.ownScope)
}
