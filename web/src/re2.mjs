// Go's RE2 parser (regexp/syntax parse.go, go1.26) as far as its errors, for
// worker mode's registration check of a schema's patterns (schemacheck.mjs):
// registerTool must refuse at once, in Go's words, the pattern the core's
// regexp.Compile refuses. The pattern is read left to right as Go reads it,
// with what its errors depend on: the items of the current group (a repeat
// needs one), the repeat just read (a second one is nested), the groups
// open, and the counted repeats nested in each item (their counts' product
// is at most 1,000), and Go's size limit (calcSize, 3,355,443 instructions)
// where the size is Go's and Go surely checks it: the items of an
// alternation are factored by Go's parser, and Go skips the check while its
// node count is low; a pattern that could reach the limit there is left to
// the core.

// The names \p{...} takes, as Go's canonicalName writes them (unicode's
// categories, scripts and category aliases that regexp/syntax finds).
const UNICODE = new Set("Adlam Ahom Any Arabic Armenian Ascii Assigned Avestan Balinese Bamum Batak Bengali Bhaiksuki Bopomofo Brahmi Braille Buginese Buhid C Carian Casedletter Cc Cf Chakma Cham Cherokee Chorasmian Closepunctuation Cn Cntrl Co Combiningmark Common Connectorpunctuation Control Coptic Cs Cuneiform Currencysymbol Cypriot Cyrillic Dashpunctuation Decimalnumber Deseret Devanagari Digit Dogra Duployan Elbasan Elymaic Enclosingmark Ethiopic Finalpunctuation Format Georgian Glagolitic Gothic Grantha Greek Gujarati Gurmukhi Han Hangul Hanunoo Hatran Hebrew Hiragana Inherited Initialpunctuation Javanese Kaithi Kannada Katakana Kawi Kharoshthi Khmer Khojki Khudawadi L Lao Latin Lc Lepcha Letter Letternumber Limbu Lineseparator Lisu Ll Lm Lo Lowercaseletter Lt Lu Lycian Lydian M Mahajani Makasar Malayalam Mandaic Manichaean Marchen Mark Mathsymbol Mc Me Medefaidrin Miao Mn Modi Modifierletter Modifiersymbol Mongolian Mro Multani Myanmar N Nabataean Nandinagari Nd Newa Nko Nl No Nonspacingmark Number Nushu Ogham Openpunctuation Oriya Osage Osmanya Other Otherletter Othernumber Otherpunctuation Othersymbol P Palmyrene Paragraphseparator Pc Pd Pe Pf Phoenician Pi Po Privateuse Ps Punct Punctuation Rejang Runic S Samaritan Saurashtra Sc Separator Sharada Shavian Siddham Sinhala Sk Sm So Sogdian Soyombo Spaceseparator Spacingmark Sundanese Surrogate Symbol Syriac Tagalog Tagbanwa Takri Tamil Tangsa Tangut Telugu Thaana Thai Tibetan Tifinagh Tirhuta Titlecaseletter Toto Ugaritic Unassigned Uppercaseletter Vai Vithkuqi Wancho Yezidi Yi Z Zl Zp Zs".split(" "));
const POSIX = new Set("alnum alpha ascii blank cntrl digit graph lower print punct space upper word xdigit".split(" "));
const PERL_CLASS = new Set("dDsSwW".split(""));
const ASSERTIONS = new Set("Abz".split("").concat("B"));

/** A pattern this reading leaves to the core. */
class Unknown extends Error {}

/** @param {string} code @param {string} expr */
const fail = (code, expr) => {
    throw new Problem(`${code}: \`${expr}\``);
};
class Problem extends Error {}

/**
 * @typedef {{ min?: number, max?: number, subs: Node[], op?: string, cap?: boolean, alt?: boolean, text?: boolean, size?: number }} Node
 *   an item of the pattern, with the counted repeat it is ({n,m}), if any; op,
 *   the repeat's operator (* + ? {); cap, a capturing group; alt, a group with
 *   alternatives; text, a \Q...\E literal; size, its Go size once computed
 */

// Go's maxSize (regexp/syntax parse.go): 128 MB of 40-byte instructions.
const MAX_SIZE = Math.floor((128 << 20) / 40);

/**
 * Go's calcSize of a node as its parser builds it, NaN where Go's tree
 * differs from this reading's (an alternation, which Go factors; a \Q...\E
 * literal).
 * @param {Node} n
 * @returns {number}
 */
function goSize(n) {
    if (n.size !== undefined) return n.size;
    let size;
    if (n.alt || n.text) size = NaN;
    else if (n.op !== undefined) {
        const sub = goSize(n.subs[0]);
        if (n.op === "*") size = 2 + sub;
        else if (n.op === "+" || n.op === "?") size = 1 + sub;
        else if (n.max === -1) size = n.min === 0 ? 2 + sub : 1 + /** @type {number} */ (n.min) * sub;
        else size = /** @type {number} */ (n.max) * sub + (/** @type {number} */ (n.max) - /** @type {number} */ (n.min));
    } else if (n.subs.length === 0) size = 1;
    else {
        // A group: its one alternative's items, concatenated.
        size = 0;
        for (const s of n.subs[0].subs) size += goSize(s);
        size = Math.max(1, size);
        if (n.cap) size += 2;
    }
    n.size = Number.isNaN(size) ? NaN : Math.max(1, size);
    return n.size;
}

/**
 * Go's repeatIsValid: the counts of nested counted repeats within n.
 * @param {Node} node
 * @param {number} n
 * @returns {boolean}
 */
function repeatIsValid(node, n) {
    if (node.max !== undefined && node.min !== undefined) {
        let m = node.max;
        if (m === 0) return true;
        if (m < 0) m = node.min;
        if (m > n) return false;
        if (m > 0) n = Math.floor(n / m);
    }
    return node.subs.every((s) => repeatIsValid(s, n));
}

/** Go's canonicalName of a Unicode class name. @param {string} name */
function canonicalName(name) {
    let out = "";
    let first = true;
    for (const c of name) {
        if (c === "_" || c === "-" || c === " ") continue;
        out += first ? (c >= "a" && c <= "z" ? c.toUpperCase() : c) : c >= "A" && c <= "Z" ? c.toLowerCase() : c;
        first = false;
    }
    return out;
}

/**
 * Go's error for a pattern its RE2 parser refuses (what follows "error
 * parsing regexp: "), or "" when it takes it or the core must judge it
 * (then note.left is set).
 * @param {string} p
 * @param {{ left: boolean }} [note]
 */
export function re2Problem(p, note) {
    try {
        parse(p);
        return "";
    } catch (err) {
        if (err instanceof Problem) return err.message;
        if (err instanceof Unknown) {
            if (note) note.left = true;
            return "";
        }
        throw err;
    }
}

/**
 * Go's parse of whole: a Problem (Go's error), Unknown, or nothing. An
 * error found after a node Go may have refused as too large is not sure to
 * be Go's (its "expression too large" names the whole pattern wherever it
 * is found): the pattern is left to the core.
 * @param {string} whole
 */
function parse(whole) {
    const state = { large: false };
    try {
        read(whole, state);
    } catch (err) {
        if (err instanceof Problem && state.large && !err.message.startsWith("expression too large")) throw new Unknown();
        throw err;
    }
}

/**
 * @param {string} whole
 * @param {{ large: boolean }} state
 */
function read(whole, state) {
    // The open groups, innermost last: the items read since the group (or
    // its last "|") began, and those of its earlier alternatives.
    /** @type {{ items: Node[], done: Node[], cap?: boolean }[]} */
    const groups = [{ items: [], done: [] }];
    let size = whole.length;
    // Go's p.repeats: the product of the counted repeats read so far
    // (their max, else min), at most MAX_SIZE. Go skips its size check
    // while its node count is below MAX_SIZE / repeats: a check this
    // reading is sure Go makes is one where that quotient is at most 1.
    let repeats = 1;
    let lastRepeat = -1;
    let i = 0;
    const top = () => groups[groups.length - 1];
    const push = (/** @type {Node} */ n) => top().items.push(n);
    /**
     * Go's size check of a node it pushes (checkLimits): past the limit
     * where Go surely checks, its "expression too large".
     * @param {Node} n
     */
    const checkSize = (n) => {
        const s = goSize(n);
        if (s > MAX_SIZE && Math.floor(MAX_SIZE / repeats) <= 1) fail("expression too large", whole);
        // A node Go may have refused (or skipped), or whose size this
        // reading cannot give with counts that could reach the limit: a
        // later error might not be Go's, and Go might refuse the pattern.
        if (s > MAX_SIZE || (Number.isNaN(s) && size > 100_000)) state.large = true;
    };
    /** A repeat operator from start to at: Go's repeat(). @param {number} start @param {number} at @param {number} [min] @param {number} [max] */
    const repeat = (start, at, min, max) => {
        if (whole[at] === "?") at++;
        if (lastRepeat >= 0) fail("invalid nested repetition operator", whole.slice(lastRepeat, at));
        const items = top().items;
        if (items.length === 0) fail("missing argument to repetition operator", whole.slice(start, at));
        /** @type {Node} */
        const node = { min, max, op: whole[start], subs: [/** @type {Node} */ (items.pop())] };
        items.push(node);
        // As Go's repeat: its size checked before its counts.
        if (min !== undefined) {
            const n = Math.max(max === undefined || max < 0 ? min : max, 1);
            size *= n;
            repeats = n > Math.floor(MAX_SIZE / repeats) ? MAX_SIZE : repeats * n;
        }
        checkSize(node);
        if (min !== undefined && max !== undefined && (min >= 2 || max >= 2) && !repeatIsValid(node, 1000)) fail("invalid repeat count", whole.slice(start, at));
        return at;
    };
    while (i < whole.length) {
        const c = whole[i];
        let repeated = -1;
        if (c === "(") {
            if (whole[i + 1] === "?") {
                i = perlFlags(whole, i, groups);
            } else {
                groups.push({ items: [], done: [], cap: true });
                i++;
            }
            if (groups.length > 100) throw new Unknown();
        } else if (c === "|") {
            const g = top();
            // Go's concat() of the alternative, checked as it is pushed.
            checkSize({ subs: [{ subs: g.items }] });
            g.done.push({ subs: g.items });
            g.items = [];
            i++;
        } else if (c === ")") {
            // Go's parseRightParen: the concat() and the alternation
            // (checked as pushed), then the unbalanced ).
            checkSize({ subs: [{ subs: top().items }] });
            if (top().done.length > 0) checkSize({ subs: [], alt: true });
            if (groups.length < 2) fail("unexpected )", whole);
            const g = /** @type {{ items: Node[], done: Node[], cap?: boolean }} */ (groups.pop());
            /** @type {Node} */
            const node = { subs: [...g.done, { subs: g.items }], cap: g.cap, alt: g.done.length > 0 };
            push(node);
            checkSize(node);
            i++;
        } else if (c === "[") {
            i = parseClass(whole, i);
            push({ subs: [] });
        } else if (c === "*" || c === "+" || c === "?") {
            repeated = i;
            i = repeat(i, i + 1);
        } else if (c === "{") {
            const r = /^\{(0|[1-9][0-9]*)(?:(,)(0|[1-9][0-9]*)?)?\}/.exec(whole.slice(i));
            if (!r) {
                // Not a repeat in Go's reading ({01}, {a}): a literal "{".
                push({ subs: [] });
                i++;
            } else {
                const big = (/** @type {string} */ d) => (d.length > 8 ? -1 : Number(d));
                let min = big(r[1]);
                const max = r[2] === undefined ? min : r[3] === undefined ? -1 : big(r[3]);
                if (r[3] !== undefined && max < 0) min = -1;
                if (min < 0 || min > 1000 || max > 1000 || (max >= 0 && min > max)) fail("invalid repeat count", r[0]);
                repeated = i;
                // repeat() checks the size (exactly where it can) before
                // the counts, as Go does.
                i = repeat(i, i + r[0].length, min, max);
            }
        } else if (c === "\\") {
            i = escape(whole, i, push);
        } else {
            push({ subs: [] });
            i += /** @type {number} */ (whole.codePointAt(i)) > 0xffff ? 2 : 1;
        }
        lastRepeat = repeated;
    }
    // At the end, as Go's Parse: the last alternative's concat() (checked),
    // then the missing ), then the alternation.
    checkSize({ subs: [{ subs: top().items }] });
    if (groups.length > 1) fail("missing closing )", whole);
    if (groups[0].done.length > 0) checkSize({ subs: [], alt: true });
    if (state.large) throw new Unknown();
}

/**
 * Go's parsePerlFlags for the "(?" at i: the index after it; a group it
 * opens is pushed on groups.
 * @param {string} s
 * @param {number} i
 * @param {{ items: Node[], done: Node[], cap?: boolean }[]} groups
 */
function perlFlags(s, i, groups) {
    const t = s.slice(i);
    const named = t.startsWith("(?P<") && t.length > 4 ? 4 : t.startsWith("(?<") && t.length > 3 ? 3 : 0;
    if (named) {
        const end = t.indexOf(">");
        if (end < 0) fail("invalid named capture", t);
        if (!/^[A-Za-z0-9_]+$/.test(t.slice(named, end))) fail("invalid named capture", t.slice(0, end + 1));
        groups.push({ items: [], done: [], cap: true });
        return i + end + 1;
    }
    let j = 2;
    let sign = 1;
    let sawFlag = false;
    while (j < t.length) {
        const c = t[j++];
        if (c === "i" || c === "m" || c === "s" || c === "U") {
            sawFlag = true;
        } else if (c === "-") {
            if (sign < 0) break;
            sign = -1;
            sawFlag = false;
        } else if (c === ":" || c === ")") {
            if (sign < 0 && !sawFlag) break;
            if (c === ":") groups.push({ items: [], done: [] });
            return i + j;
        } else {
            // A character past the BMP is one rune to Go.
            if (/** @type {number} */ (t.codePointAt(j - 1)) > 0xffff) j++;
            break;
        }
    }
    return fail("invalid or unsupported Perl syntax", t.slice(0, j));
}

/**
 * A backslash at i outside a class, as Go's main loop reads it: the index
 * after it.
 * @param {string} s
 * @param {number} i
 * @param {(n: Node) => void} push
 */
function escape(s, i, push) {
    const n = s[i + 1];
    if (n !== undefined && ASSERTIONS.has(n)) {
        push({ subs: [] });
        return i + 2;
    }
    if (n === "C") fail("invalid escape sequence", "\\C");
    if (n === "Q") {
        const end = s.indexOf("\\E", i + 2);
        if ((end < 0 ? s.length : end) > i + 2) push({ subs: [], text: true });
        return end < 0 ? s.length : end + 2;
    }
    const cls = unicodeClass(s, i);
    const next = cls >= 0 ? cls : PERL_CLASS.has(n) ? i + 2 : escapeChar(s, i).next;
    push({ subs: [] });
    return next;
}

/**
 * Go's parseUnicodeClass at i (a backslash): the index after the class, or
 * -1 when it is not \p or \P.
 * @param {string} s
 * @param {number} i
 */
function unicodeClass(s, i) {
    if (s[i] !== "\\" || (s[i + 1] !== "p" && s[i + 1] !== "P")) return -1;
    let seq;
    let name;
    if (s[i + 2] !== "{") {
        const ch = String.fromCodePoint(/** @type {number} */ (s.codePointAt(i + 2) ?? 0xfffd));
        seq = s.slice(i, i + 2 + (i + 2 < s.length ? ch.length : 0));
        name = seq.slice(2);
    } else {
        const end = s.indexOf("}", i);
        if (end < 0) fail("invalid character class range", s.slice(i));
        seq = s.slice(i, end + 1);
        name = s.slice(i + 3, end);
    }
    if (name.startsWith("^")) name = name.slice(1);
    if (!UNICODE.has(canonicalName(name))) fail("invalid character class range", seq);
    return i + seq.length;
}

/**
 * Go's parseEscape at i (a backslash): the character's code point and the
 * index after it.
 * @param {string} s
 * @param {number} i
 * @returns {{ code: number, next: number }}
 */
function escapeChar(s, i) {
    if (i + 1 >= s.length) fail("trailing backslash at end of expression", "");
    const c = /** @type {number} */ (s.codePointAt(i + 1));
    const ch = String.fromCodePoint(c);
    let j = i + 1 + ch.length;
    const octal = (/** @type {string | undefined} */ d) => d !== undefined && d >= "0" && d <= "7";
    const hex = (/** @type {string | undefined} */ d) => (d !== undefined && /^[0-9A-Fa-f]$/.test(d) ? parseInt(d, 16) : -1);
    if (c < 0x80 && !/[0-9A-Za-z]/.test(ch)) return { code: c, next: j };
    if (ch === "0" || (ch >= "1" && ch <= "7" && octal(s[j]))) {
        let code = c - 48;
        for (let k = 1; k < 3 && octal(s[j]); k++) code = code * 8 + s.charCodeAt(j++) - 48;
        return { code, next: j };
    }
    if (ch === "x" && j < s.length) {
        if (s[j] === "{") {
            j++;
            let code = 0;
            let digits = 0;
            for (;;) {
                if (j >= s.length) break;
                const d = s[j];
                j += String.fromCodePoint(/** @type {number} */ (s.codePointAt(j))).length;
                if (d === "}") {
                    if (digits === 0) break;
                    return { code, next: j };
                }
                const v = hex(d);
                if (v < 0) break;
                code = code * 16 + v;
                if (code > 0x10ffff) break;
                digits++;
            }
        } else {
            const x = hex(s[j]);
            j += String.fromCodePoint(/** @type {number} */ (s.codePointAt(j))).length;
            const y = hex(s[j]);
            if (j < s.length) j += String.fromCodePoint(/** @type {number} */ (s.codePointAt(j))).length;
            if (x >= 0 && y >= 0) return { code: x * 16 + y, next: j };
        }
    }
    const named = "afnrtv".indexOf(ch);
    if (named >= 0) return { code: [7, 12, 10, 13, 9, 11][named], next: j };
    return fail("invalid escape sequence", s.slice(i, j));
}

/**
 * Go's parseClass for the "[" at i: the index after the class.
 * @param {string} s
 * @param {number} i
 */
function parseClass(s, i) {
    const whole = s.slice(i);
    let j = i + 1;
    if (s[j] === "^") j++;
    let first = true;
    while (j >= s.length || s[j] !== "]" || first) {
        first = false;
        if (s[j] === "[" && s[j + 1] === ":" && j + 2 < s.length) {
            const end = s.indexOf(":]", j + 2);
            if (end >= 0) {
                const name = s.slice(j, end + 2);
                if (!POSIX.has(name.slice(2, -2).replace(/^\^/, ""))) fail("invalid character class range", name);
                j = end + 2;
                continue;
            }
        }
        const cls = unicodeClass(s, j);
        if (cls >= 0) {
            j = cls;
            continue;
        }
        if (s[j] === "\\" && PERL_CLASS.has(s[j + 1])) {
            j += 2;
            continue;
        }
        const start = j;
        const lo = classChar(s, j, whole);
        j = lo.next;
        if (s[j] === "-" && j + 1 < s.length && s[j + 1] !== "]") {
            const hi = classChar(s, j + 1, whole);
            j = hi.next;
            if (hi.code < lo.code) fail("invalid character class range", s.slice(start, j));
        }
    }
    return j + 1;
}

/**
 * Go's parseClassChar at j.
 * @param {string} s
 * @param {number} j
 * @param {string} whole the class from its "[" to the pattern's end
 */
function classChar(s, j, whole) {
    if (j >= s.length) fail("missing closing ]", whole);
    if (s[j] === "\\") return escapeChar(s, j);
    const code = /** @type {number} */ (s.codePointAt(j));
    return { code, next: j + (code > 0xffff ? 2 : 1) };
}
