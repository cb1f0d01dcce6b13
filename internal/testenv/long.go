package testenv

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// LongEnv is the variable that asks for the whole test suite:
// HIPLINT_LONGTESTS=1 (.ci/run's full-machine run sets it).
//
// The README's go test ./... (the default) must finish in minutes on two
// cores, cold. There, a test that checks one property over many inputs (a
// corpus: fixtures, configurations, edits) checks it over a subset that
// still reaches every distinct path (Sample), and a test whose property a
// default test already checks on another input skips, naming that test
// (SkipUnlessLong). Under HIPLINT_LONGTESTS=1 every test runs everything.
// docs/performance.md ("Test suite time, fourth round") has the rule.
//
// It is not HIPLINT_LONG, which asks for what CI does not run either
// (hiplint on std, the 20,000-call function).
const LongEnv = "HIPLINT_LONGTESTS"

// Long reports whether this run is the whole suite (HIPLINT_LONGTESTS set
// to a true value, as strconv.ParseBool reads it; unset or empty is the
// default run). Any other value fails the test rather than guess.
func Long(t testing.TB) bool {
	t.Helper()
	v, ok := os.LookupEnv(LongEnv)
	if !ok || v == "" {
		return false
	}
	long, err := strconv.ParseBool(v)
	if err != nil {
		t.Fatalf("%s=%q: want 1 (the whole suite) or 0 (the default run)", LongEnv, v)
	}
	return long
}

// SkipUnlessLong skips the test in the default run. coveredBy names the
// default test that checks the same property, and how: the skip message
// says it, so that a reader of a default run's skips knows nothing went
// unchecked.
func SkipUnlessLong(t testing.TB, coveredBy string) {
	t.Helper()
	if coveredBy == "" {
		t.Fatal("SkipUnlessLong: name the default test that covers this one")
	}
	if !Long(t) {
		t.Skipf("runs under %s=1 (CI's full run); by default %s", LongEnv, coveredBy)
	}
}

// Sample returns all under HIPLINT_LONGTESTS=1 and, in the default run, the
// items of all whose name is in keep, in all's order. name names an item.
// Each name in keep must name an item (a renamed fixture fails the test, not
// silently shrinks the subset), and keep must be a strict subset: a test
// that keeps everything needs no Sample. It logs what it leaves out.
func Sample[T any](t testing.TB, all []T, name func(T) string, keep ...string) []T {
	t.Helper()
	if len(keep) == 0 {
		t.Fatal("Sample: keep at least one item")
	}
	names := make(map[string]bool, len(all))
	for _, it := range all {
		n := name(it)
		if names[n] {
			t.Fatalf("Sample: two items named %q", n)
		}
		names[n] = true
	}
	kept := make(map[string]bool, len(keep))
	for _, k := range keep {
		if !names[k] {
			t.Fatalf("Sample: keep names %q, which is not among the items", k)
		}
		if kept[k] {
			t.Fatalf("Sample: keep names %q twice", k)
		}
		kept[k] = true
	}
	if len(kept) == len(all) {
		t.Fatal("Sample: keep names every item; drop the Sample")
	}
	if Long(t) {
		return all
	}
	var out []T
	var left []string
	for _, it := range all {
		if kept[name(it)] {
			out = append(out, it)
		} else {
			left = append(left, name(it))
		}
	}
	t.Logf("default run: %d of %d (%s=1 runs the others: %s)", len(out), len(all), LongEnv, strings.Join(left, ", "))
	return out
}

// SampleStrings is Sample for a list of names.
func SampleStrings(t testing.TB, all []string, keep ...string) []string {
	t.Helper()
	return Sample(t, all, func(s string) string { return s }, keep...)
}
