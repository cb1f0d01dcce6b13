package main

import (
	"fmt"
	"strings"
)

// unifiedDiff returns the unified diff, with three lines of context, that
// turns old into new, naming the file name in both headers (so `patch -p0`
// applies it from the directory hiplint ran in); "" when they are equal.
//
// x/tools and the standard library keep their diff packages internal. Fixes
// change a few lines of a file, so this trims the common head and tail and
// runs the quadratic longest-common-subsequence only on what is left,
// falling back to "replace it all" when that is too large to be worth it.
func unifiedDiff(name string, old, new []byte) string {
	a, b := splitLines(string(old)), splitLines(string(new))
	ops := diffLines(a, b)

	// oldLine[k], newLine[k]: lines of a and b before ops[k].
	oldLine := make([]int, len(ops)+1)
	newLine := make([]int, len(ops)+1)
	for k, op := range ops {
		oldLine[k+1], newLine[k+1] = oldLine[k], newLine[k]
		if op.kind != '+' {
			oldLine[k+1]++
		}
		if op.kind != '-' {
			newLine[k+1]++
		}
	}

	const context = 3
	var out strings.Builder
	for i := 0; i < len(ops); {
		for i < len(ops) && ops[i].kind == ' ' {
			i++
		}
		if i == len(ops) {
			break
		}
		// A hunk runs from context lines before its first change to context
		// lines after its last, taking in later changes that are closer
		// than twice the context.
		start, last := max(0, i-context), i
		for k := i; k < len(ops); k++ {
			if ops[k].kind != ' ' {
				last = k
			} else if k-last > 2*context {
				break
			}
		}
		end := min(len(ops), last+context+1)

		if out.Len() == 0 {
			fmt.Fprintf(&out, "--- %s\n+++ %s\n", name, name)
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n",
			hunkRange(oldLine[start], oldLine[end]-oldLine[start]),
			hunkRange(newLine[start], newLine[end]-newLine[start]))
		for _, op := range ops[start:end] {
			out.WriteByte(op.kind)
			out.WriteString(op.text)
			if !strings.HasSuffix(op.text, "\n") {
				out.WriteString("\n\\ No newline at end of file\n")
			}
		}
		i = end
	}
	return out.String()
}

// hunkRange formats a hunk's start line and length; an empty range names the
// line before it, as diff -u does.
func hunkRange(before, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", before)
	}
	if n == 1 {
		return fmt.Sprintf("%d", before+1)
	}
	return fmt.Sprintf("%d,%d", before+1, n)
}

// A lineOp keeps (' '), deletes ('-') or inserts ('+') one line.
type lineOp struct {
	kind byte
	text string
}

// diffLines returns a shortest-ish edit script from a to b.
func diffLines(a, b []string) []lineOp {
	var ops []lineOp
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		ops = append(ops, lineOp{' ', a[head]})
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	ops = append(ops, lcsOps(a[head:len(a)-tail], b[head:len(b)-tail])...)
	for _, line := range a[len(a)-tail:] {
		ops = append(ops, lineOp{' ', line})
	}
	return ops
}

// lcsOps is the edit script from a to b through their longest common
// subsequence of lines.
func lcsOps(a, b []string) []lineOp {
	const maxCells = 4 << 20
	if len(a)*len(b) > maxCells {
		ops := make([]lineOp, 0, len(a)+len(b))
		for _, line := range a {
			ops = append(ops, lineOp{'-', line})
		}
		for _, line := range b {
			ops = append(ops, lineOp{'+', line})
		}
		return ops
	}
	// lcs[i][j] is the LCS length of a[i:] and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []lineOp
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			ops = append(ops, lineOp{' ', a[i]})
			i++
			j++
		case j == len(b) || (i < len(a) && lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, lineOp{'-', a[i]})
			i++
		default:
			ops = append(ops, lineOp{'+', b[j]})
			j++
		}
	}
	return ops
}

// splitLines splits s after each newline; the last line may lack one.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}
