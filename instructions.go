package codemode

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

const (
	// inlineSignatureLimit is the largest catalog whose signatures go into
	// the instructions, saving the model a search round trip; above it the
	// signatures would cost more tokens than the search does.
	inlineSignatureLimit = 15
	// inlineSignatureBudget bounds the signatures inlined: a small catalog
	// of huge ones (an MCP server's 20,000-property schema) is searched
	// instead. The real small catalogs need at most 6.2 KB (filesystem, 14).
	inlineSignatureBudget = 32 << 10
	// maxListedNamespaces bounds the namespace line of huge catalogs.
	maxListedNamespaces = 60
)

// buildInstructions writes the built-in system instruction for the given
// (already filtered) tools and limits. Every sentence is there because a
// model got it wrong without it; keep it short, it is paid for on every turn.
func buildInstructions(tools []*toolEntry, lim limits) string {
	return buildInstructionsWith(tools, lim, (*toolEntry).signature, nil)
}

// buildInstructionsWith is buildInstructions with a session's signatures
// (which may show inferred result types) and its namespace summary memo.
func buildInstructionsWith(tools []*toolEntry, lim limits, sig func(*toolEntry) string, memo *nsMemo) string {
	var sb strings.Builder
	sb.WriteString(`You work by writing JavaScript or TypeScript that calls tools. You have two tools:
- searchTools({query, namespace?, limit?}): find tools for a task; returns names, descriptions and TypeScript signatures.
- executeCode({code, explanation}): run JavaScript in a sandbox and get its result.

The code is the body of an async function: use top-level await, and return the value you need as JSON data. You may write TypeScript: types are erased. Each run starts fresh: nothing persists between runs. Inside it:
- await tool_search({query, namespace?, limit?}) returns [{name, namespace, description, signature}] ([]: no match).
- await tools.<namespace>.<name>(input) calls a tool, e.g. await tools.orders.search({status: "open"}); await tool_call(name, input) does the same by name.
- console.log/info/warn/error/debug/table/dir/assert/count/time/group/trace/clear are logged.
- Standard built-ins, URL, TextEncoder, atob, setTimeout, Intl; no fetch, DOM or modules.

`)
	fmt.Fprintf(&sb, "Limits per run: %s (time waiting for tools included), %d MB memory, %d tool calls, %d bytes of result and logs (more is cut, with markers).\n\n",
		formatDuration(lim.Timeout), lim.MemoryLimitMB, lim.MaxToolCalls, lim.MaxResultChars)
	sb.WriteString(`A run returns {ok: true, result, logs} or {ok: false, error: {name, message, code, line?}} for syntax errors, uncaught exceptions and exceeded limits. A tool that fails or is denied throws inside your code with the reason; use try/catch where you can recover. Inputs are checked against tool schemas.

Good practice:
- Search before calling a tool you have not seen; use exact names and follow the signatures.
- Do the whole task in as few runs as possible: filter, join and aggregate in code, and return only what is needed.
- Run independent calls in parallel with Promise.all.
- If a run fails, read the error, fix the code and try again.
`)
	writeToolOverview(&sb, tools, sig, memo)
	return sb.String()
}

// executeCodeDescription is executeCode's own description: the contract in
// brief. The full instructions and the catalog are the system instruction
// (SystemInstruction), which is sent once and always lists the tools as
// they are now; repeating them here doubled every request and went stale
// when tools were registered later. It is concatenated, not formatted: in
// the browser it is built before the first result, and fmt's scan of a
// 500-character format made V8 optimize fmt's printer (11 KB) at every
// cold start (bench/README.md, "Cold start").
func executeCodeDescription(lim limits) string {
	return "Run JavaScript or TypeScript in a sandbox: the body of an async function that calls the host's tools " +
		"(await tools.<namespace>.<name>(input)) and returns JSON data. " +
		"Resolves with {ok: true, result, logs, toolCalls} or {ok: false, error: {name, message, code, line?, column?}, logs, toolCalls}. " +
		"Use searchTools (or tool_search in the code) to find tools and their TypeScript signatures; the system instruction has the rules. " +
		"Limits per run: " + formatDuration(lim.Timeout) + ", " + strconv.Itoa(lim.MemoryLimitMB) + " MB, " +
		strconv.Itoa(lim.MaxToolCalls) + " tool calls, " + strconv.Itoa(lim.MaxResultChars) + " bytes of output."
}

func writeToolOverview(sb *strings.Builder, tools []*toolEntry, sig func(*toolEntry) string, memo *nsMemo) {
	if len(tools) == 0 {
		sb.WriteString("\nNo tools are available right now.\n")
		return
	}
	spaces, topLevel := memo.summarize(tools)
	fmt.Fprintf(sb, "\nAvailable tools (%d)", len(tools))
	if len(spaces) > 0 {
		sb.WriteString(" by namespace; tool_search({namespace}) lists one:\n")
		writeNamespaces(sb, spaces, maxListedNamespaces)
		if len(topLevel) > 0 {
			sb.WriteString("Without namespace: ")
			sb.WriteString(strings.Join(topLevel, ", "))
			sb.WriteString(".\n")
		}
	} else {
		sb.WriteString(": ")
		sb.WriteString(strings.Join(topLevel, ", "))
		sb.WriteString(".\n")
	}

	if len(tools) > inlineSignatureLimit {
		return
	}
	sigs := make([]string, len(tools))
	size := 0
	for i, e := range tools {
		sigs[i] = sig(e)
		size += len(sigs[i])
	}
	if size > inlineSignatureBudget {
		sb.WriteString("\nTheir signatures are too long to list here: use searchTools.\n")
		return
	}
	sb.WriteString("\nTheir signatures:\n```ts\n")
	sb.WriteString(strings.Join(sigs, "\n\n"))
	sb.WriteString("\n```\n")
}

// formatDuration writes a limit the way a person would say it: 30s, 2m,
// 1m30s, 1h, 500ms.
func formatDuration(d time.Duration) string {
	if d <= 0 {
		return "no time limit"
	}
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = s[:len(s)-2]
	}
	if strings.HasSuffix(s, "h0m") {
		s = s[:len(s)-2]
	}
	return s
}
