package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
)

type node struct {
	next *node
	val  []int
}

func build(depth int) *node { // build
	if depth == 0 {
		runtime.GC()
		return nil
	}
	n := &node{val: make([]int, depth)}
	n.next = build(depth - 1)
	return n
}

func frames() []string { // frames
	pcs := make([]uintptr, 16)
	n := runtime.Callers(1, pcs) // frames call
	it := runtime.CallersFrames(pcs[:n])
	var out []string
	for {
		f, more := it.Next()
		if strings.HasPrefix(f.Function, "main.") {
			out = append(out, fmt.Sprintf("%s %d", f.Function, f.Line))
		}
		if !more {
			return out
		}
	}
}

//go:noinline
func outer() []string { // outer
	return frames() // outer call
}

func recovered() (msg string) { // recovered
	defer func() { msg = fmt.Sprint(recover()) }()
	var m map[string]int
	m["x"] = 1
	return "no panic"
}

func main() {
	// Work whose output the line tables cannot change: stacks that grow and
	// are scanned by the GC, goroutines, a recovered panic.
	sum := 0
	for n := build(2000); n != nil; n = n.next {
		sum += len(n.val)
	}
	var wg sync.WaitGroup
	res := make([]int, 8)
	for i := range res {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i] = len(fmt.Sprint(build(100 + i)))
			runtime.GC()
		}()
	}
	wg.Wait()
	sort.Ints(res)
	fmt.Println("sum", sum, "goroutines", len(res), "recovered:", recovered())
	fmt.Println("---")
	for _, f := range outer() { // main call
		fmt.Println(f)
	}
	for _, l := range strings.Split(string(debug.Stack()), "\n") {
		if strings.HasPrefix(l, "main.") {
			fmt.Println("stack", l[:strings.IndexByte(l, '(')])
		}
	}
}
