package tsstrip

import (
	"fmt"
	"testing"
)

// TestUnawaitedCalls: Prepare lists the statements that call an async
// function the program declares and drop its promise, at the model's
// line, and nothing where the promise is used or the name may be
// something else at the call.
func TestUnawaitedCalls(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     string // "line:name ..." in source order
	}{
		{"a statement with ;", "async function save(x) { await x }\nsave(1);\nreturn 2", "[2:save]"},
		{"a statement ended by a line break", "async function save() {}\nsave()\nreturn 1", "[2:save]"},
		{"the last statement of a body", "async function save() {}\nconst x = 1\nif (x) return x\nsave()", "[4:save]"},
		{"a const async arrow", "const save = async (x) => x\nsave(1)\nreturn 1", "[2:save]"},
		{"an async arrow of one parameter", "const save = async x => x\nsave(1)\nreturn 1", "[2:save]"},
		{"a let async function expression, after if", "let save = async function () {}\nif (true) save();\nreturn 1", "[2:save]"},
		{"after else", "async function a() {}\nif (false) {} else a();\nreturn 1", "[2:a]"},
		{"in a loop's block", "async function save(x) {}\nfor (const x of [1, 2]) { save(x) }\nreturn 1", "[2:save]"},
		{"in a function of a script", "async function save() {}\nfunction go() {\n  save();\n}\ngo()", "[3:save]"},
		{"in an arrow's block of a script", "async function save() {}\nconst go = () => { save() }\ngo()", "[2:save]"},
		{"in a method of a script", "async function save() {}\nclass A { run() { save(); } }\nnew A().run()", "[2:save]"},
		{"two calls, the name also a property", "async function save() {}\nconst o = { save: 1 };\no.save;\nsave();\nsave()\nreturn o", "[4:save 5:save]"},
		{"TypeScript", "async function save(x: number): Promise<void> {}\nsave(1);\nreturn 1", "[2:save]"},
		{"inside main, which is called for the program", "async function save() {}\nasync function main() {\n  save();\n  return 1\n}", "[3:save]"},
		{"after a line break that ends a statement", "async function save() {}\nlet x = 1\nsave()\nreturn x", "[3:save]"},
		{"a call in a template inside the call", "async function save(s) {}\nsave(`${1}`)\nreturn 1", "[2:save]"},

		{"awaited", "async function save() {}\nawait save();\nreturn 1", "[]"},
		{"void", "async function save() {}\nvoid save();\nreturn 1", "[]"},
		{"caught", "async function save() {}\nsave().catch(e => 0);\nreturn 1", "[]"},
		{"caught on the next line", "async function save() {}\nsave()\n  .catch(e => 0)\nreturn 1", "[]"},
		{"kept", "async function save() {}\nconst p = save();\nreturn await p", "[]"},
		{"returned", "async function save() {}\nreturn save()", "[]"},
		{"in an expression", "async function save() {}\nconst ok = save() || 1, n = (save(), 2)\nreturn ok", "[]"},
		{"assigned across a line break", "async function save() {}\nlet p\np =\nsave()\nreturn p", "[]"},
		{"an arrow's value", "async function save() {}\nconst go = () => save()\nreturn go", "[]"},
		{"in Promise.all", "async function save() {}\nawait Promise.all([save(), save()])\nreturn 1", "[]"},
		{"in a for head", "async function save() {}\nfor (let i = 0; i < 1; save()) break;\nreturn 1", "[]"},
		{"after a case label", "async function save() {}\nswitch (1) { case 1: save() }\nreturn 1", "[]"},
		{"called again", "async function save() {}\nsave()()\nreturn 1", "[]"},
		{"not async", "function save() {}\nsave();\nreturn 1", "[]"},
		{"an async generator", "async function* gen() {}\ngen();\nreturn 1", "[]"},
		{"async then a line break", "const save = async\nfunction f() {}\nreturn 1", "[]"},
		{"a parameter of the same name", "async function save() {}\nfunction g(save) { save(); }\nreturn 1", "[]"},
		{"reassigned", "let save = async () => 1\nsave = () => 1\nsave();\nreturn 1", "[]"},
		{"declared twice", "async function save() {}\nfunction g() { function save() {} save(); }\nreturn 1", "[]"},
		{"destructured elsewhere", "async function save() {}\nfunction g(o) { const { save } = o; save(); }\nreturn 1", "[]"},
		{"passed as a value", "async function save() {}\n[1].map(save)\nsave();\nreturn 1", "[]"},
		{"declared inside a function only", "function g() { async function save() {}\n  save();\n}\nreturn g()", "[]"},
		{"a method of the same name", "async function save() {}\nconst o = { save() { return 1 } };\no.save();\nreturn 1", "[]"},
		{"the last statement of a script, awaited by the host", "async function main() {}\nmain();", "[]"},
		{"a script's top level", "async function main() {}\nmain();\nconsole.log(1)", "[]"},
		{"in a string and a comment", "async function save() {}\nconst s = 'save();'\n// save();\nreturn s", "[]"},
	} {
		p, err := Prepare(tc.in)
		if err != nil {
			t.Errorf("%s: error %v", tc.name, err)
			continue
		}
		got := "["
		for i, c := range p.Unawaited {
			if i > 0 {
				got += " "
			}
			got += fmt.Sprintf("%d:%s", c.Line, c.Name)
		}
		if got += "]"; got != tc.want {
			t.Errorf("%s: Unawaited = %s, want %s (code %q)", tc.name, got, tc.want, p.Code)
		}
	}
}
