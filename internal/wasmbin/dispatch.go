package wasmbin

// An interpreter's dispatch loop (QuickJS's JS_CallInternal) is a loop
// around a switch on the opcode, which compiles to a br_table with a target
// per opcode: hundreds, where any other switch of the module has a few
// dozen. QuickJS polls its interrupt handler itself on that loop's backward
// jumps and calls, so a count there only costs (bench fib25: ~20% of the
// run). The loop is found by that shape, not by a name: the release asset's
// names are stripped.

// dispatchMinTargets and dispatchMargin make the rule strict: the largest
// br_table must have at least dispatchMinTargets targets and half as many
// again as any other (dispatchMargin: 3/2), or no loop is left out. The
// pinned release asset: 244 targets, then 126, 124 and 88.
const (
	dispatchMinTargets = 128
	dispatchMargin     = 3 // over 2
)

// loopRef names a loop: the function body (index in the code section) and
// the loop's place among that body's loop instructions, from 0.
type loopRef struct{ body, loop int }

// noLoop is the loopRef of no loop: every loop is counted.
var noLoop = loopRef{-1, -1}

// dispatchLoop returns the innermost loop holding the code section's
// largest br_table if that br_table qualifies (dispatchMinTargets,
// dispatchMargin) and a loop holds it, else noLoop. p is the section's
// payload.
func dispatchLoop(p []byte) (loopRef, error) {
	var largest, second uint32
	best := noLoop
	r := &reader{b: p}
	for n, i := r.u32(), 0; i < int(n) && r.err == nil; i++ {
		size := r.u32()
		body := &reader{b: r.bytes(size)}
		if r.err != nil {
			break
		}
		for g := body.u32(); g > 0 && body.err == nil; g-- {
			body.u32()  // count
			body.byte() // type
		}
		var open []int // each open block's loop ordinal, -1 for block and if
		loops := 0
		for body.pos < len(body.b) && body.err == nil {
			switch op := body.byte(); op {
			case OpLoop:
				body.blockType()
				open = append(open, loops)
				loops++
			case OpBlock, OpIf:
				body.blockType()
				open = append(open, -1)
			case OpEnd:
				if len(open) > 0 { // else the function's own end
					open = open[:len(open)-1]
				}
			case 0x0e: // br_table
				targets := body.u32() + 1 // the labels and the default
				for k := targets; k > 0 && body.err == nil; k-- {
					body.skipLEB()
				}
				if targets <= largest {
					second = max(second, targets)
					continue
				}
				second, largest, best = largest, targets, loopRef{i, -1}
				for k := len(open) - 1; k >= 0; k-- {
					if open[k] >= 0 {
						best.loop = open[k]
						break
					}
				}
			default:
				if err := body.skipImmediates(op); err != nil {
					return noLoop, err
				}
			}
		}
		if body.err != nil {
			return noLoop, body.err
		}
	}
	if r.err != nil {
		return noLoop, r.err
	}
	if best.loop < 0 || largest < dispatchMinTargets || 2*uint64(largest) < dispatchMargin*uint64(second) {
		return noLoop, nil
	}
	return best, nil
}
