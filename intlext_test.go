package codemode

import (
	"encoding/json"
	"testing"
)

// TestIntlTest262Rows: what test262 asserts where Node's ICU (the judge of
// web/test/intl-cases.mjs) answers otherwise or not at all: a -u- key the
// option overrides leaves the locale (resolved-*-unicode-extensions-and-
// options.js; V8 keeps en-u-kn), hour12 wins over hc (hourCycle.js),
// PluralRules' notation (PluralRules/notation.js,
// compactDisplay-undefined-unless-notation-compact.js, resolvedOptions/
// order.js), the lengths of Intl's functions and of Date's local setters
// (built-ins/Date/prototype/set*/length.js) and Date.prototype's
// descriptor (prop-desc.js), which the sandbox replaces in a zone other
// than UTC.
func TestIntlTest262Rows(t *testing.T) {
	s := mustSession(t, newTestCodeMode(t, Config{TimeZone: "America/New_York"}))
	rows := []struct{ code, want string }{
		{`new Intl.Collator("en-u-kn", { numeric: false }).resolvedOptions().locale`, `"en"`},
		{`new Intl.Collator("en-u-kn-true", { numeric: true }).resolvedOptions().locale`, `"en-u-kn"`},
		{`new Intl.Collator("en-u-kf-lower", { caseFirst: "upper" }).resolvedOptions().locale`, `"en"`},
		{`const r = new Intl.Collator("de-u-kn").resolvedOptions(); return [r.locale, r.numeric]`, `["en-US-u-kn",true]`},
		{`const r = new Intl.DateTimeFormat("en-u-hc-h23", { hour: "numeric", hour12: true }).resolvedOptions(); return [r.locale, r.hourCycle]`, `["en","h12"]`},
		{`const r = new Intl.DateTimeFormat("de-u-hc-h24", { hour: "numeric" }).resolvedOptions(); return [r.hourCycle, r.hour12]`, `["h24",false]`},
		{`new Intl.DateTimeFormat("en", { hour: "numeric", minute: "2-digit", hourCycle: "h24", timeZone: "UTC" }).format(Date.UTC(2024, 0, 1, 0, 5))`, `"24:05"`},
		{`return ["standard", "compact", "scientific", "engineering"].map((notation) => new Intl.PluralRules("en", { notation }).resolvedOptions().notation)`, `["standard","compact","scientific","engineering"]`},
		{`const r = new Intl.PluralRules("en", { notation: "compact", compactDisplay: "long" }).resolvedOptions(); return [r.compactDisplay, "compactDisplay" in new Intl.PluralRules("en", { compactDisplay: "long" }).resolvedOptions()]`, `["long",false]`},
		{`Object.keys(new Intl.PluralRules([], { minimumSignificantDigits: 1, maximumSignificantDigits: 2 }).resolvedOptions()).join()`, `"locale,type,notation,minimumIntegerDigits,minimumSignificantDigits,maximumSignificantDigits,pluralCategories"`},
		{`try { new Intl.PluralRules("en", { notation: "COMPACT" }) } catch (e) { return e.name }`, `"RangeError"`},
		{`try { new Intl.PluralRules("en", { notation: Symbol() }) } catch (e) { return e.name }`, `"TypeError"`},
		{`[new Intl.PluralRules("en", { notation: "compact" }).select(1000), new Intl.PluralRules("en", { notation: "scientific" }).select(1)]`, `["other","one"]`},
		{`[Intl.PluralRules.length, Intl.PluralRules.prototype.select.length, Intl.Collator.supportedLocalesOf.name, Intl.RelativeTimeFormat.prototype.format.length, Intl.NumberFormat.prototype.formatToParts.length, new Intl.Collator().compare.length]`, `[0,1,"supportedLocalesOf",2,1,2]`},
		{`["Milliseconds", "Seconds", "Minutes", "Hours", "Date", "Month", "FullYear"].map((k) => Date.prototype["set" + k].length)`, `[1,2,3,4,1,2,3]`},
		{`const d = Object.getOwnPropertyDescriptor(Date, "prototype"); return [d.writable, d.enumerable, d.configurable, Date.prototype.constructor === Date]`, `[false,false,false,true]`},
		// A run of 50,000 zeros: /0+$/ tried each in turn (5,000 took 0.46 s, 50,000 ~45 s).
		{`const s = new Intl.NumberFormat("en-US").format(10n ** 50000n + 1n); return [s.length, s.slice(0, 6), s.slice(-6)]`, `[66667,"100,00","00,001"]`},
		{`Object.prototype.year = "2-digit"; try { return new Intl.DateTimeFormat("en").resolvedOptions().year } finally { delete Object.prototype.year }`, `"numeric"`},
		// An offset time zone (ES2024; offset-timezone-*.js): ±HH, ±HHMM, ±HH:MM, named ±HH:MM, shown as GMT+3:01 as
		// Chromium 156 shows it (Node 20 refuses it); seconds, hour 24, minute 60 and one hour digit are a RangeError.
		{`const d = new Date("1995-12-17T03:24:56Z"); return ["+0301", "-07:56", "+02", "+1400"].map((timeZone) => { const f = new Intl.DateTimeFormat("en", { timeZone, timeStyle: "long" }); return f.format(d) + " | " + f.resolvedOptions().timeZone })`, `["6:25:56 AM GMT+3:01 | +03:01","7:28:56 PM GMT-7:56 | -07:56","5:24:56 AM GMT+2 | +02:00","5:24:56 PM GMT+14 | +14:00"]`},
		{`[new Date("1995-12-17T03:24:56Z").toLocaleString("en-US", { timeZone: "+05:30", timeZoneName: "longOffset" }), new Intl.DateTimeFormat("en", { timeZone: "-00" }).resolvedOptions().timeZone]`, `["12/17/1995, 8:54:56 AM GMT+05:30","+00:00"]`},
		{`return ["+24:00", "+05:30:00", "+5:30", "+05:60", "05:30"].map((timeZone) => { try { return new Intl.DateTimeFormat("en", { timeZone }).resolvedOptions().timeZone } catch (e) { return e.name } })`, `["RangeError","RangeError","RangeError","RangeError","RangeError"]`},
		// A decimal string past a double's range is Infinity (ToIntlMathematicalValue), one below it exact: as
		// Chromium 156 and Node 20 format them.
		{`const f = new Intl.NumberFormat("en", { roundingMode: "floor" }); return [f.format("1e400"), f.format("-1e-400"), f.format("-1e-300"), f.format("0e5")]`, `["∞","-0.001","-0.001","0"]`},
		// NumberFormat reads its options, and lists them, in the standard's order (constructor-option-read-order.js,
		// constructor-options-throwing-getters.js, resolvedOptions/order.js, return-keys-order-default.js).
		{`const r = []; new Intl.NumberFormat("en", new Proxy({}, { get(o, k) { r.push(k) } })); return r.join()`, `"localeMatcher,numberingSystem,style,currency,currencyDisplay,currencySign,unit,unitDisplay,notation,minimumIntegerDigits,minimumFractionDigits,maximumFractionDigits,minimumSignificantDigits,maximumSignificantDigits,roundingIncrement,roundingMode,roundingPriority,trailingZeroDisplay,compactDisplay,useGrouping,signDisplay"`},
		{`Reflect.ownKeys(new Intl.NumberFormat("en", { style: "currency", currency: "EUR", maximumSignificantDigits: 2 }).resolvedOptions()).join()`, `"locale,numberingSystem,style,currency,currencyDisplay,currencySign,minimumIntegerDigits,minimumSignificantDigits,maximumSignificantDigits,useGrouping,notation,signDisplay,roundingIncrement,roundingMode,roundingPriority,trailingZeroDisplay"`},
		{`try { new Intl.NumberFormat("en", { roundingIncrement: 5, maximumFractionDigits: 2 }) } catch (e) { return e.name + ": " + e.message }`, `"RangeError: Intl.NumberFormat: roundingIncrement 5 needs minimumFractionDigits equal to maximumFractionDigits (they are 0 and 2)"`},
		{`try { new Intl.NumberFormat("en", { roundingIncrement: 5000.5 }) } catch (e) { return e.name }`, `"RangeError"`},
	}
	for _, r := range rows {
		code := r.code
		if code[0] != 'c' && code[0] != 't' && code[0] != 'r' && code[0] != 'O' {
			code = "return " + code
		}
		res := exec(t, s, code, nil)
		if !res.OK {
			t.Errorf("%s: %+v", r.code, res.Error)
			continue
		}
		var got, want any
		_ = json.Unmarshal(res.Result, &got)
		_ = json.Unmarshal([]byte(r.want), &want)
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if string(g) != string(w) {
			t.Errorf("%s\n  got  %s\n  want %s", r.code, g, w)
		}
	}
}
