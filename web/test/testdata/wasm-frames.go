package main

import (
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"
)

type node struct {
	next *node
	val  []int
}

//go:noinline
func build(depth int) *node {
	if depth == 0 {
		runtime.GC()
		return nil
	}
	n := &node{val: make([]int, depth)}
	n.next = build(depth - 1)
	return n
}

//go:noinline
func callers() []string {
	pcs := make([]uintptr, 16)
	it := runtime.CallersFrames(pcs[:runtime.Callers(0, pcs)])
	var out []string
	for f, more := it.Next(); more; f, more = it.Next() {
		if strings.HasPrefix(f.Function, "main.") {
			out = append(out, f.Function)
		}
	}
	return out
}

// inlined is inlined into outer: a frame of the inlining tree only.
func inlined() []string { return callers() }

//go:noinline
func outer() []string { return inlined() }

//go:noinline
func withArgs(a, b int) []string {
	var out []string
	for _, l := range strings.Split(string(debug.Stack()), "\n") {
		if strings.HasPrefix(l, "main.withArgs(") {
			out = append(out, l)
		}
	}
	return append(out, fmt.Sprint(a+b))
}

func recovered() (msg string) {
	defer func() { msg = fmt.Sprint(recover()) }()
	var m map[string]int
	m["x"] = 1
	return "no panic"
}

//go:noinline
func deferred(n int) (sum int) {
	for i := range n {
		defer func() { sum += i }()
	}
	if n > 3 {
		defer func() {
			if recover() != nil {
				sum = -sum
			}
		}()
		panic(errors.New("deep"))
	}
	return 0
}

func main() {
	// Work whose output the cut cannot change: stacks that grow and are
	// scanned by the GC, goroutines that sleep, recovered panics, defers.
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
			time.Sleep(time.Millisecond)
			res[i] = len(fmt.Sprint(build(100 + i)))
			runtime.GC()
		}()
	}
	wg.Wait()
	sort.Ints(res)
	fmt.Println("sum", sum, "goroutines", len(res), "recovered:", recovered(), "deferred", deferred(3), deferred(6))
	fmt.Println("---")
	fmt.Println(outer())
	fmt.Println(withArgs(40, 2))
}
