//go:build ignore

// testsummary reads `go test -json` on standard input and prints what a CI
// log needs: each package's result line, the whole output of every failing
// test, and at the end every skipped test with the reason it gave. A skip
// without a reason makes it exit 1: whoever reads the log must be able to
// tell a missing tool from a broken test. It does not judge failures; the
// exit status of go test does.
//
//	go test -json ./... | go run .ci/testsummary.go "label"
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// event is the part of test2json's TestEvent that is read here.
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

type testKey struct{ pkg, test string }

func main() {
	label := "go test"
	if len(os.Args) > 1 {
		label = os.Args[1]
	}
	os.Exit(summarize(os.Stdin, os.Stdout, label))
}

func summarize(in io.Reader, out io.Writer, label string) int {
	output := map[testKey][]string{} // a test's own output lines, kept until it ends
	var skipped []testKey
	reasons := map[testKey]string{}
	failed := 0

	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if err := json.Unmarshal(line, &e); err != nil {
			// go test prints some errors (a pattern matching nothing) as
			// plain text even under -json.
			fmt.Fprintf(out, "%s\n", line)
			continue
		}
		if e.Test == "" {
			if e.Output != "" && e.Output != "PASS\n" && !strings.HasPrefix(e.Output, "=== ") {
				fmt.Fprint(out, e.Output)
			}
			continue
		}
		k := testKey{e.Package, e.Test}
		switch e.Action {
		case "output":
			output[k] = append(output[k], e.Output)
		case "skip":
			skipped = append(skipped, k)
			reasons[k] = reason(output[k])
			delete(output, k)
		case "fail":
			failed++
			fmt.Fprintf(out, "FAIL %s %s:\n%s", e.Package, e.Test, strings.Join(output[k], ""))
			delete(output, k)
		case "pass":
			delete(output, k)
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintf(out, "testsummary: reading go test -json: %v\n", err)
		return 1
	}

	sort.Slice(skipped, func(i, j int) bool {
		if skipped[i].pkg != skipped[j].pkg {
			return skipped[i].pkg < skipped[j].pkg
		}
		return skipped[i].test < skipped[j].test
	})
	fmt.Fprintf(out, "\n%s: %d failed tests, %d skipped tests\n", label, failed, len(skipped))
	status := 0
	for _, k := range skipped {
		r := reasons[k]
		if r == "" {
			r = "NO REASON GIVEN: every skip must say why"
			status = 1
		}
		fmt.Fprintf(out, "  SKIP %s %s: %s\n", k.pkg, k.test, r)
	}
	return status
}

// reason returns what a skipped test printed, less go test's own framing
// lines and the file:line prefix of t.Skip's message.
func reason(lines []string) string {
	var parts []string
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "=== ") || strings.HasPrefix(l, "--- ") {
			continue
		}
		if file, msg, ok := strings.Cut(l, ": "); ok && strings.HasSuffix(file[:max(strings.LastIndex(file, ":"), 0)], ".go") {
			l = msg
		}
		parts = append(parts, l)
	}
	return strings.Join(parts, " / ")
}
