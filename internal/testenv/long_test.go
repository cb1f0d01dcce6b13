package testenv

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// recorder is a testing.TB that records what a helper asked of it; Fatal
// and Skip end the goroutine as the real ones do.
type recorder struct {
	testing.TB
	fatal, skip string
	logs        []string
}

func (r *recorder) Helper()                      {}
func (r *recorder) Logf(f string, args ...any)   { r.logs = append(r.logs, fmt.Sprintf(f, args...)) }
func (r *recorder) Fatal(args ...any)            { r.fatal = fmt.Sprint(args...); runtime.Goexit() }
func (r *recorder) Fatalf(f string, args ...any) { r.fatal = fmt.Sprintf(f, args...); runtime.Goexit() }
func (r *recorder) Skipf(f string, args ...any)  { r.skip = fmt.Sprintf(f, args...); runtime.Goexit() }

// call runs f with a recorder on a goroutine of its own and returns the
// recorder and whether f returned (rather than failing or skipping).
func call(t *testing.T, f func(tb testing.TB)) (*recorder, bool) {
	r := &recorder{TB: t}
	returned := false
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
		returned = true
	}()
	<-done
	return r, returned
}

var fixtures = []string{"a", "b", "c", "d"}

func TestLongReadsTheVariable(t *testing.T) {
	for _, tc := range []struct {
		value string
		long  bool
		bad   bool
	}{
		{"", false, false},
		{"0", false, false},
		{"false", false, false},
		{"1", true, false},
		{"true", true, false},
		{"yes", false, true},
	} {
		t.Setenv(LongEnv, tc.value)
		var got bool
		r, ok := call(t, func(tb testing.TB) { got = Long(tb) })
		if tc.bad {
			if ok || !strings.Contains(r.fatal, `HIPLINT_LONGTESTS="yes"`) {
				t.Errorf("%q: returned %v, fatal %q; want a failure naming the value", tc.value, ok, r.fatal)
			}
			continue
		}
		if !ok || got != tc.long {
			t.Errorf("%q: Long = %v (returned %v, fatal %q), want %v", tc.value, got, ok, r.fatal, tc.long)
		}
	}
}

func TestSampleKeepsTheSubsetByDefault(t *testing.T) {
	t.Setenv(LongEnv, "")
	var got []string
	r, ok := call(t, func(tb testing.TB) { got = SampleStrings(tb, fixtures, "c", "a") })
	if !ok {
		t.Fatalf("failed: %s", r.fatal)
	}
	if want := []string{"a", "c"}; !slices.Equal(got, want) {
		t.Errorf("default run: %v, want %v (all's order)", got, want)
	}
	if len(r.logs) != 1 || !strings.Contains(r.logs[0], "2 of 4") || !strings.Contains(r.logs[0], "b, d") {
		t.Errorf("the log must say what was left out: %q", r.logs)
	}

	t.Setenv(LongEnv, "1")
	r, ok = call(t, func(tb testing.TB) { got = SampleStrings(tb, fixtures, "c", "a") })
	if !ok || !slices.Equal(got, fixtures) {
		t.Errorf("HIPLINT_LONGTESTS=1: %v (returned %v, fatal %q), want every item", got, ok, r.fatal)
	}
}

func TestSampleByName(t *testing.T) {
	t.Setenv(LongEnv, "")
	type tc struct {
		name string
		n    int
	}
	all := []tc{{"one", 1}, {"two", 2}, {"three", 3}}
	var got []tc
	_, ok := call(t, func(tb testing.TB) { got = Sample(tb, all, func(c tc) string { return c.name }, "two") })
	if !ok || len(got) != 1 || got[0].n != 2 {
		t.Errorf("got %v (returned %v), want the item named two", got, ok)
	}
}

// A subset that names no item, names one twice or names them all is a
// mistake in the test, in either mode.
func TestSampleRefusesABadSubset(t *testing.T) {
	for _, long := range []string{"", "1"} {
		t.Setenv(LongEnv, long)
		for _, tc := range []struct {
			keep []string
			want string
		}{
			{nil, "keep at least one"},
			{[]string{"a", "e"}, `"e", which is not among the items`},
			{[]string{"a", "a"}, `"a" twice`},
			{[]string{"a", "b", "c", "d"}, "every item"},
		} {
			r, ok := call(t, func(tb testing.TB) { SampleStrings(tb, fixtures, tc.keep...) })
			if ok || !strings.Contains(r.fatal, tc.want) {
				t.Errorf("%s=%q, keep %q: returned %v, fatal %q; want a failure saying %q", LongEnv, long, tc.keep, ok, r.fatal, tc.want)
			}
		}
	}
	r, ok := call(t, func(tb testing.TB) { SampleStrings(tb, []string{"x", "x"}, "x") })
	if ok || !strings.Contains(r.fatal, `two items named "x"`) {
		t.Errorf("duplicate items: returned %v, fatal %q", ok, r.fatal)
	}
}

func TestSkipUnlessLong(t *testing.T) {
	t.Setenv(LongEnv, "")
	r, ok := call(t, func(tb testing.TB) { SkipUnlessLong(tb, "TestOther checks it on x") })
	if ok || !strings.Contains(r.skip, "HIPLINT_LONGTESTS=1") || !strings.Contains(r.skip, "TestOther checks it on x") {
		t.Errorf("default run: returned %v, skip %q; want a skip naming the switch and the covering test", ok, r.skip)
	}
	r, ok = call(t, func(tb testing.TB) { SkipUnlessLong(tb, "") })
	if ok || r.fatal == "" {
		t.Errorf("a skip without its covering test must fail (returned %v)", ok)
	}
	t.Setenv(LongEnv, "1")
	r, ok = call(t, func(tb testing.TB) { SkipUnlessLong(tb, "TestOther checks it on x") })
	if !ok || r.skip != "" {
		t.Errorf("HIPLINT_LONGTESTS=1: returned %v, skip %q; want the test to run", ok, r.skip)
	}
}
