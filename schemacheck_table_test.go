package codemode

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/interopio/code-mode/internal/jsondec"
)

// schemaCheckRow is a row of testdata/schemacheck.json, which
// web/test/schemacheck.test.mjs reads too: worker mode's copy of the check
// (web/src/schemacheck.mjs) must say what this one says.
type schemaCheckRow struct {
	Schema json.RawMessage `json:"schema"`
	Error  string          `json:"error"`
}

func readSchemaCheckTable(t *testing.T) []schemaCheckRow {
	raw, err := os.ReadFile("testdata/schemacheck.json")
	if err != nil {
		t.Fatal(err)
	}
	var table struct{ Rows []schemaCheckRow }
	if err := json.Unmarshal(raw, &table); err != nil {
		t.Fatal(err)
	}
	return table.Rows
}

// TestSchemaCheckTable: checkInputSchema gives each row's message, the
// schema decoded as registration decodes it.
func TestSchemaCheckTable(t *testing.T) {
	for _, r := range readSchemaCheckTable(t) {
		root, err := jsondec.Decode(r.Schema, jsondec.Options{})
		if err != nil {
			t.Fatalf("%s: %v", r.Schema, err)
		}
		got := ""
		if err := checkInputSchema(root); err != nil {
			got = err.Error()
		}
		if got != r.Error {
			t.Errorf("%s:\ngot  %q\nwant %q", r.Schema, got, r.Error)
		}
	}
}

// TestSchemaCheckTableCoversTheRules: every message schemacheck.go can
// give has a row that gives it, every keyword it checks has a row with a
// problem at that keyword, and every type name a row that accepts it; so
// worker mode's copy is held to all of them, not only to the rules someone
// remembered to write a row for.
func TestSchemaCheckTableCoversTheRules(t *testing.T) {
	rows := readSchemaCheckTable(t)
	var messages []string
	for _, r := range rows {
		if r.Error != "" {
			messages = append(messages, r.Error)
		}
	}
	// The formats of badf, from the sources: a new rule needs a row.
	fset := token.NewFileSet()
	consts := map[string]string{}
	var formats []string
	for _, file := range []string{"schemacheck.go", "schemameta.go", "schemaref.go"} {
		f, err := parser.ParseFile(fset, file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				for i, name := range n.Names {
					if i < len(n.Values) {
						if lit, ok := n.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
							consts[name.Name], _ = strconv.Unquote(lit.Value)
						}
					}
				}
			case *ast.CallExpr:
				if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "badf" {
					lit, ok := n.Args[0].(*ast.BasicLit)
					if !ok {
						t.Fatalf("%s: badf's format is not a literal", fset.Position(n.Pos()))
					}
					format, _ := strconv.Unquote(lit.Value)
					if format == "%s" {
						arg, ok := n.Args[1].(*ast.Ident)
						if !ok {
							t.Fatalf("%s: badf(\"%%s\", ...) of something other than a constant", fset.Position(n.Pos()))
						}
						format = "\x00" + arg.Name // resolved below, once every constant is known
					}
					formats = append(formats, format)
				}
			}
			return true
		})
	}
	if len(formats) < 15 {
		t.Fatalf("found only %d badf calls in schemacheck.go", len(formats))
	}
	verb := regexp.MustCompile(`%[qsvd]`)
	for _, format := range formats {
		var re *regexp.Regexp
		if name, ok := strings.CutPrefix(format, "\x00"); ok {
			re = regexp.MustCompile(": " + regexp.QuoteMeta(consts[name]) + "$")
		} else {
			parts := verb.Split(format, -1)
			for i := range parts {
				parts[i] = regexp.QuoteMeta(strings.ReplaceAll(parts[i], "%%", "%"))
			}
			re = regexp.MustCompile(": " + strings.Join(parts, ".+") + "$")
		}
		found := false
		for _, m := range messages {
			if re.MatchString(m) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("no row of testdata/schemacheck.json gives %q", strings.TrimPrefix(format, "\x00"))
		}
	}
	keywords := []string{"type", "items", "required", "enum", "exclusiveMinimum", "exclusiveMaximum",
		// schemameta.go's
		"uniqueItems", "readOnly", "writeOnly", "deprecated", "$recursiveAnchor", "examples", "$comment", "id",
		"$vocabulary", "$anchor", "$dynamicAnchor", "$id", "$dynamicRef", "$recursiveRef", "dependentRequired", "dependencies"}
	for _, set := range []map[string]bool{oneSchemaKeywords, schemaMapKeywords, schemaListKeywords, numberKeywords, countKeywords, stringKeywords} {
		for k := range set {
			keywords = append(keywords, k)
		}
	}
	for _, k := range keywords {
		found := false
		for _, m := range messages {
			if strings.HasPrefix(m, "/"+k+": ") || strings.HasPrefix(m, "/"+k+"/") {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("no row of testdata/schemacheck.json has a problem at %q", k)
		}
	}
	accepted := map[string]bool{}
	for _, r := range rows {
		if r.Error == "" {
			accepted[string(r.Schema)] = true
		}
	}
	for name := range typeNames {
		if !accepted[`{"type": "`+name+`"}`] {
			t.Errorf(`no row of testdata/schemacheck.json accepts {"type": %q}`, name)
		}
	}
}
