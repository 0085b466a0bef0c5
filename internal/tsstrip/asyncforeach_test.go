package tsstrip

import "testing"

// TestAsyncForEachLine: Prepare finds the first async callback passed to
// forEach by its tokens, not by its text, on the code as prepared
// (TypeScript erased, fences and main unwrapped) at the model's line.
func TestAsyncForEachLine(t *testing.T) {
	checkPrepared(t, "AsyncForEachLine", func(p Prepared) int { return p.AsyncForEachLine }, []preparedCase[int]{
		{"async arrow", "let t = 0\narr.forEach(async x => { t += await f(x) })\nreturn t", 2},
		{"async arrow with parentheses", "arr.forEach(async (x, i) => { await f(x, i) })", 1},
		{"async function expression", "arr.forEach(async function (x) { await f(x) })", 1},
		{"named async function expression", "arr.forEach(async function each(x) { await f(x) })", 1},
		{"optional call", "arr?.forEach?.(async x => f(x))", 1},
		{"a Map's forEach", "new Map().forEach(async (v, k) => f(k, v))", 1},
		{"a comment before the callback", "arr.forEach(/* each */ async x => f(x))", 1},
		{"TypeScript parameters and return type", "arr.forEach(async (x: Item): Promise<void> => { await f(x) })", 1},
		{"TypeScript type parameters", "arr.forEach(async <T,>(x: T) => { await f(x) })", 1},
		{"inside an unwrapped main", "async function main() {\n  const xs = await f()\n  xs.forEach(async (x) => { await g(x) })\n}", 3},
		{"fenced", "Here:\n```ts\nxs.forEach(async (x: number) => { await g(x) })\n```", 3},
		{"the first of two", "a.forEach(x => x)\nb.forEach(async x => f(x))\nc.forEach(async x => f(x))", 2},

		{"sync arrow", "arr.forEach(x => { t += x })", 0},
		{"sync function", "arr.forEach(function (x) { t += x })", 0},
		{"a named callback", "arr.forEach(save)", 0},
		{"a parameter named async", "arr.forEach(async => log(async))", 0},
		{"a variable named async", "arr.forEach(async)", 0},
		{"a call of a function named async", "arr.forEach(async(x))", 0},
		{"async then a line break is a name", "arr.forEach(async\n)", 0},
		{"async arrow as the second argument", "arr.forEach(f, async () => 1)", 0},
		{"in a string", `const s = "x.forEach(async x => f(x))"; return s`, 0},
		{"in a template", "return `x.forEach(async x => f(x))`", 0},
		{"in a comment", "// x.forEach(async x => f(x))\n/* y.forEach(async function () {}) */\nreturn 1", 0},
		{"in a regular expression", "return /.forEach(async x => f(x))/.test(s)", 0},
		{"for...of with await", "for (const x of arr) { await f(x) }", 0},
		{"Promise.all of map", "await Promise.all(arr.map(async x => f(x)))", 0},
		{"a function named forEach", "forEach(async x => f(x))", 0},
		{"a property forEach not called", "const g = arr.forEach; g(1)", 0},
	})
}

// TestAwaitedMapLine: Prepare finds the first await of an array that a map
// callback fills with promises (async, or calling a tool), at the model's
// line; the program read the promises as results with no word of
// Promise.all.
func TestAwaitedMapLine(t *testing.T) {
	checkPrepared(t, "AwaitedMapLine", func(p Prepared) int { return p.AwaitedMapLine }, []preparedCase[int]{
		{"async arrow", "const ids = [1]\nconst os = await ids.map(async (id) => f(id))\nreturn os", 2},
		{"a tool call", "const os = await ids.map((id) => tools.orders.get({ id }))", 1},
		{"tool_call", "const os = await ids.map((id) => tool_call(\"orders.get\", { id }))", 1},
		{"a member chain", "return await data.rows.map(async function (r) { return g(r) })", 1},
		{"TypeScript", "const os: any[] = await ids.map(async (id: string) => f(id))", 1},

		{"Promise.all", "return await Promise.all(ids.map(async (id) => f(id)))", 0},
		{"a sync callback of data", "const xs = await ids.map((x) => x * 2)", 0},
		{"chained after map", "const r = await ids.map(async (x) => f(x)).reduce(g)", 0},
		{"map not awaited", "const ps = ids.map(async (x) => f(x))\nreturn await Promise.all(ps)", 0},
		{"a function named map", "await map(async (x) => f(x))", 0},
		{"in a string", "return \"await a.map(async x => f(x))\"", 0},
	})
}

// TestAsyncTestLine: Prepare finds the first async callback passed to
// filter, find, some, every and their kin (each test a truthy Promise),
// and names the method; forEach's is AsyncForEachLine's.
func TestAsyncTestLine(t *testing.T) {
	checkPrepared(t, "AsyncTestLine", func(p Prepared) int { return p.AsyncTestLine }, []preparedCase[int]{
		{"filter", "const rows = await f()\nreturn rows.filter(async (o) => (await g(o)).ok)", 2},
		{"find", "return rows.find(async function (o) { return await g(o) })", 1},
		{"some on a later line", "const a = 1\n\nreturn xs.some(async x => await g(x))", 3},
		{"every", "return xs.every(async (x: number): Promise<boolean> => g(x))", 1},
		{"findIndex", "return xs.findIndex(async x => g(x))", 1},

		{"sync filter", "return xs.filter((x) => x.ok)", 0},
		{"forEach is not a test", "xs.forEach(async x => g(x))", 0},
		{"map", "return await Promise.all(xs.map(async x => g(x)))", 0},
		{"a filter function of its own", "return filter(async x => g(x))", 0},
		{"in a string", `return "xs.filter(async x => g(x))"`, 0},
	})
	for code, want := range map[string]string{"xs.filter(async x => g(x))": "filter", "xs.find(async x => g(x))": "find", "xs.every(async x => g(x))": "every"} {
		if p, err := Prepare(code); err != nil || p.AsyncTest != want {
			t.Errorf("%s: AsyncTest %q (%v), want %q", code, p.AsyncTest, err, want)
		}
	}
}
