// @mode-independent: a build script on a Go program; no factory.
// scripts/wasm-jumps.mjs, the build's rewrite of Go's jumps into forward
// branches: a Go program that exercises every kind of control flow the
// core uses prints the same before and after, and the rewrite changed
// its jumps.

import assert from "node:assert/strict";
import { test } from "node:test";
import { rewriteJumps } from "../../scripts/wasm-jumps.mjs";
import { runRewritten } from "./go-wasm.mjs";

const program = `package main

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

type shape interface{ area() float64 }
type rect struct{ w, h float64 }
type circle struct{ r float64 }

func (r rect) area() float64   { return r.w * r.h }
func (c circle) area() float64 { return 3 * c.r * c.r }

//go:noinline
func classify(n int) string {
	switch {
	case n < 0:
		return "negative"
	case n == 0:
		return "zero"
	case n%15 == 0:
		return "fizzbuzz"
	case n%5 == 0:
		return "buzz"
	case n%3 == 0:
		return "fizz"
	}
	return fmt.Sprint(n)
}

//go:noinline
func collatz(n int) (steps int) {
	for n != 1 {
		if n%2 == 0 {
			n /= 2
		} else {
			n = 3*n + 1
		}
		steps++
	}
	return
}

//go:noinline
func safeDiv(a, b int) (q int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered: %v", r)
		}
	}()
	return a / b, nil
}

func producer(n int, out chan<- int, done chan<- struct{}) {
	for i := range n {
		out <- i * i
	}
	close(out)
	done <- struct{}{}
}

func main() {
	var b strings.Builder
	for i := -1; i <= 16; i++ {
		b.WriteString(classify(i))
		b.WriteByte(' ')
	}
	fmt.Println(b.String())
	total := 0
	for i := 1; i < 300; i++ {
		total += collatz(i)
	}
	fmt.Println("collatz", total)
	fmt.Println(safeDiv(7, 2))
	fmt.Println(safeDiv(1, 0))
	out, done := make(chan int), make(chan struct{}, 1)
	go producer(50, out, done)
	sum := 0
loop:
	for {
		select {
		case v, ok := <-out:
			if !ok {
				break loop
			}
			sum += v
		}
	}
	<-done
	fmt.Println("squares", sum)
	m := map[string]int{}
	for _, w := range strings.Fields("the quick brown fox jumps over the lazy dog the end") {
		m[w]++
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Print(k, "=", m[k], " ")
	}
	fmt.Println()
	shapes := []shape{rect{2, 3}, circle{1}, rect{1, 1}}
	sort.Slice(shapes, func(i, j int) bool { return shapes[i].area() < shapes[j].area() })
	fmt.Printf("%v\\n", shapes)
	err := fmt.Errorf("wrapped: %w", errors.New("inner"))
	fmt.Println(err, errors.Unwrap(err))
}
`;

test("wasm-jumps: a Go program prints the same after the rewrite, whose jumps it changed", () => {
    const { original, result: r, want, got } = runRewritten(program, rewriteJumps);
    assert.ok(r.jumps > 1000, `only ${r.jumps} jumps rewritten`);
    assert.ok(r.rewritten > 100 && r.rewritten < r.functions, `${r.rewritten} of ${r.functions} functions rewritten`);
    assert.ok(WebAssembly.validate(r.bytes));
    // Nothing is left to rewrite, and the rewrite changed the binary.
    assert.equal(rewriteJumps(r.bytes).jumps, 0);
    assert.notDeepEqual(Buffer.from(r.bytes), original);
    assert.match(want, /^negative zero 1 2 fizz 4 buzz fizz 7 8 fizz buzz 11 fizz 13 14 fizzbuzz 16 \n/);
    assert.match(want, /recovered: runtime error: integer divide by zero/);
    assert.match(want, /squares 40425/);
    assert.equal(got, want);
});

test("wasm-jumps: a binary that is not WebAssembly is refused", () => {
    assert.throws(() => rewriteJumps(Buffer.from("not wasm")), /not a WebAssembly binary/);
});
