package tsstrip

import "testing"

func TestUntag(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"<code>\nreturn 1\n</code>", "\nreturn 1\n"},
		{"Thought: count them.\n<code>\nreturn 1\n</code>\nObservation", "\n\nreturn 1\n"},
		// A page's script element around the program (was the JSX hint).
		{"<script>\nconst a = 1;\nreturn a\n</script>", "\nconst a = 1;\nreturn a\n"},
		{"<script type=\"module\">\nreturn 2\n</script>\n", "\nreturn 2\n"},
		{"  <script>\n  return 3\n  </script>", "\n  return 3\n"},
		{"<code class=\"language-javascript\">\nreturn 4\n</code>", "\nreturn 4\n"},
		{"<codes>\nreturn 1\n</codes>", "<codes>\nreturn 1\n</codes>"},
		// CodeAct's tags (session 42: the JSX hint).
		{"<execute>\nreturn 5\n</execute>", "\nreturn 5\n"},
		// Not a tag line, or never closed: as written.
		{"<scripts>\nreturn 1\n</scripts>", "<scripts>\nreturn 1\n</scripts>"},
		{"<script>return 1</script>", "<script>return 1</script>"},
		{"<script>\nreturn 1", "<script>\nreturn 1"},
		{"const s = '<script>';\nreturn s", "const s = '<script>';\nreturn s"},
		// Markup a program builds in a template literal stays.
		{"const page = `\n<script>\nalert(1)\n</script>\n`;\nreturn page", "const page = `\n<script>\nalert(1)\n</script>\n`;\nreturn page"},
		{"const t = `${a}\n<code>\nx\n</code>`\nreturn t", "const t = `${a}\n<code>\nx\n</code>`\nreturn t"},
	} {
		if got := untag(tc.src); got != tc.want {
			t.Errorf("untag(%q) = %q, want %q", tc.src, got, tc.want)
		}
	}
}

// TestUnfenceAfterBOM: a BOM before the opening fence (copied text) is
// white space, as JavaScript reads it; the block ran as template literals
// ("not a function").
func TestUnfenceAfterBOM(t *testing.T) {
	for src, want := range map[string]string{
		"\ufeff```ts\nreturn 1\n```":          "\nreturn 1\n",
		"\ufeff  ```js\nreturn 2\n```\nprose": "\nreturn 2\n",
	} {
		if got, err := Unfence(src); err != nil || got != want {
			t.Errorf("Unfence(%q) = %q, %v; want %q", src, got, err, want)
		}
	}
}

// TestUnfenceAfterThought: a reasoning model's <think>...</think> before
// the code becomes empty lines (as code it was JSX: a SYNTAX error); one
// never closed, or not first, stays.
func TestUnfenceAfterThought(t *testing.T) {
	for src, want := range map[string]string{
		"<think>\ncount them\n</think>\nreturn 1":                    "\n\n\nreturn 1",
		"\n<think>a</think> return 2":                                "\n return 2",
		"<think>\nI call `tools.x`.\n</think>\n```js\nreturn 3\n```": "\n\n\n\nreturn 3\n",
		"<think>\nreturn 1":                                          "<think>\nreturn 1",
		"const a = 1;\n<think>b</think>":                             "const a = 1;\n<think>b</think>",
	} {
		if got, err := Unfence(src); err != nil || got != want {
			t.Errorf("Unfence(%q) = %q, %v; want %q", src, got, err, want)
		}
	}
}

// TestWrapperInComment: a fence or a wrapper tag on lines of their own
// inside a block comment of the program is the comment's text: the
// program around it runs (the comment's block ran in its place). A "/*"
// of prose before a fence ("src/*.js") opens no comment.
func TestWrapperInComment(t *testing.T) {
	const after = "\n*/\nreturn 1"
	for _, src := range []string{
		"/*\n```js\nwipe()\n```" + after,
		"const a = 1;\n  /* e.g.:\n~~~javascript\nwipe()\n~~~" + after,
		"f(); /*\n```\nwipe()\n```" + after,
		"/*\n```json\n{}\n```" + after,
		"/*\n<execute>\nwipe()\n</execute>" + after,
		"x = [/*\n<script>\nwipe()\n</script>" + after,
		// Opened mid-line after a name, a number, a string or a regexp,
		// with white space or a second * after it (security44).
		"let x = 1 /*\n```js\nwipe()\n```" + after,
		"const who = \"a\" /* the mail:\n```\nwipe()\n```" + after,
		"n++ /*\n<execute>\nwipe()\n</execute>" + after,
		"let z = 1/*\n~~~js\nwipe()\n~~~" + after,
		"const re = /a/g /**\n```js\nwipe()\n```" + after,
		"let y = x\t/*\n```json\n{}\n```" + after,
		// Text right after the /* (security45).
		"let x = 1 /*note\n```js\nwipe()\n```" + after,
		"const who = \"a\" /*TODO: check\n<execute>\nwipe()\n</execute>" + after,
		"let a = [1, 2] /*@ts-ignore\n~~~js\nwipe()\n~~~" + after,
		"for (const x of xs) f(x) /*-\n```\nwipe()\n```" + after,
		"for await (const x of xs) f(x) /*x\n```js\nwipe()\n```" + after,
	} {
		if got, err := Unfence(src); err != nil || got != src {
			t.Errorf("Unfence(%q) = %q, %v; want it as written", src, got, err)
		}
	}
	for src, want := range map[string]string{
		"The files are src/*.js:\n```js\nreturn 2\n```": "\n\nreturn 2\n",
		"/* a */\n```js\nreturn 3\n```":                 "\n\nreturn 3\n",
		"See a/*b:\n<code>\nreturn 4\n</code>":          "\n\nreturn 4\n",
		// Globs and a comment mark that nothing closes are prose's.
		"Globs src/*.js and lib/**/*.ts:\n```js\nreturn 5\n```":          "\n\nreturn 5\n",
		"Files like src/*.js:\n```js\nreturn 6\n```\nand test/*/spec.js": "\n\nreturn 6\n",
		"Do not run rm -rf /* here:\n```js\nreturn 7\n```":               "\n\nreturn 7\n",
		"GET /api/v1/* routes:\n```js\nreturn 8\n```":                    "\n\nreturn 8\n",
		// Prose with a /* before a program with its own comment (security45).
		"The pattern a /* b is no comment:\n```js\n/* c */\nreturn 9\n```": "\n\n/* c */\nreturn 9\n",
		"Step 1 /* draft:\n```js\nreturn 10 /* d */\n```":                  "\n\nreturn 10 /* d */\n",
		"Old files sit in /*tmp:\n```js\nreturn 11 /* e */\n```":           "\n\nreturn 11 /* e */\n",
		// A joining word the line ends on (mend46).
		"Files in /*tmp:\n```js\nreturn 12 /* f */\n```":          "\n\nreturn 12 /* f */\n",
		"Saved as /*.log:\n```js\nreturn 13 /* g */\n```":         "\n\nreturn 13 /* g */\n",
		"Look for /*TODO markers:\n```js\nreturn 14 /* h */\n```": "\n\nreturn 14 /* h */\n",
	} {
		if got, err := Unfence(src); err != nil || got != want {
			t.Errorf("Unfence(%q) = %q, %v; want %q", src, got, err, want)
		}
	}
}
