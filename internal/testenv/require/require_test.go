package require_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/require"
)

// fakeT records failures and FailNow calls; unlike testing.T's FailNow,
// its FailNow returns, so that a test sees what came after.
type fakeT struct {
	errs     []string
	failNows int
}

func (f *fakeT) Errorf(format string, args ...any) {
	f.errs = append(f.errs, fmt.Sprintf(format, args...))
}

func (f *fakeT) FailNow() { f.failNows++ }

func (f *fakeT) Helper() {}

type myErr struct{}

func (*myErr) Error() string { return "myErr" }

// pairs holds, for each function, a call that passes and one that fails.
func pairs(t *testing.T) map[string][2]func(require.TestingT) {
	sentinel := errors.New("sentinel")
	p, q := new(int), new(int)
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var target *myErr
	return map[string][2]func(require.TestingT){
		"Fail":           {nil, func(t require.TestingT) { require.Fail(t, "x") }},
		"Equal":          {func(t require.TestingT) { require.Equal(t, 1, 1) }, func(t require.TestingT) { require.Equal(t, 1, int64(1)) }},
		"NotEqual":       {func(t require.TestingT) { require.NotEqual(t, 1, 2) }, func(t require.TestingT) { require.NotEqual(t, 1, 1) }},
		"EqualValues":    {func(t require.TestingT) { require.EqualValues(t, 1, int64(1)) }, func(t require.TestingT) { require.EqualValues(t, 1, 2) }},
		"Same":           {func(t require.TestingT) { require.Same(t, p, p) }, func(t require.TestingT) { require.Same(t, p, q) }},
		"NotSame":        {func(t require.TestingT) { require.NotSame(t, p, q) }, func(t require.TestingT) { require.NotSame(t, p, p) }},
		"Contains":       {func(t require.TestingT) { require.Contains(t, "abc", "b") }, func(t require.TestingT) { require.Contains(t, "abc", "d") }},
		"NotContains":    {func(t require.TestingT) { require.NotContains(t, "abc", "d") }, func(t require.TestingT) { require.NotContains(t, "abc", "b") }},
		"True":           {func(t require.TestingT) { require.True(t, true) }, func(t require.TestingT) { require.True(t, false) }},
		"False":          {func(t require.TestingT) { require.False(t, false) }, func(t require.TestingT) { require.False(t, true) }},
		"Empty":          {func(t require.TestingT) { require.Empty(t, "") }, func(t require.TestingT) { require.Empty(t, "a") }},
		"NotEmpty":       {func(t require.TestingT) { require.NotEmpty(t, "a") }, func(t require.TestingT) { require.NotEmpty(t, "") }},
		"Len":            {func(t require.TestingT) { require.Len(t, "a", 1) }, func(t require.TestingT) { require.Len(t, "a", 2) }},
		"Nil":            {func(t require.TestingT) { require.Nil(t, (*int)(nil)) }, func(t require.TestingT) { require.Nil(t, p) }},
		"NotNil":         {func(t require.TestingT) { require.NotNil(t, p) }, func(t require.TestingT) { require.NotNil(t, (*int)(nil)) }},
		"Zero":           {func(t require.TestingT) { require.Zero(t, 0) }, func(t require.TestingT) { require.Zero(t, 1) }},
		"NotZero":        {func(t require.TestingT) { require.NotZero(t, 1) }, func(t require.TestingT) { require.NotZero(t, 0) }},
		"Regexp":         {func(t require.TestingT) { require.Regexp(t, "b", "abc") }, func(t require.TestingT) { require.Regexp(t, "^b", "abc") }},
		"NotRegexp":      {func(t require.TestingT) { require.NotRegexp(t, "^b", "abc") }, func(t require.TestingT) { require.NotRegexp(t, "b", "abc") }},
		"Less":           {func(t require.TestingT) { require.Less(t, 1, 2) }, func(t require.TestingT) { require.Less(t, 2, 2) }},
		"LessOrEqual":    {func(t require.TestingT) { require.LessOrEqual(t, 2, 2) }, func(t require.TestingT) { require.LessOrEqual(t, 3, 2) }},
		"Greater":        {func(t require.TestingT) { require.Greater(t, 3, 2) }, func(t require.TestingT) { require.Greater(t, 2, 2) }},
		"GreaterOrEqual": {func(t require.TestingT) { require.GreaterOrEqual(t, 2, 2) }, func(t require.TestingT) { require.GreaterOrEqual(t, 1, 2) }},
		"Positive":       {func(t require.TestingT) { require.Positive(t, 1) }, func(t require.TestingT) { require.Positive(t, 0) }},
		"ElementsMatch":  {func(t require.TestingT) { require.ElementsMatch(t, []int{1, 2}, []int{2, 1}) }, func(t require.TestingT) { require.ElementsMatch(t, []int{1, 1}, []int{1}) }},
		"JSONEq":         {func(t require.TestingT) { require.JSONEq(t, "[1]", " [1] ") }, func(t require.TestingT) { require.JSONEq(t, "[1]", "[2]") }},
		"Error":          {func(t require.TestingT) { require.Error(t, sentinel) }, func(t require.TestingT) { require.Error(t, nil) }},
		"NoError":        {func(t require.TestingT) { require.NoError(t, nil) }, func(t require.TestingT) { require.NoError(t, sentinel) }},
		"ErrorIs":        {func(t require.TestingT) { require.ErrorIs(t, sentinel, sentinel) }, func(t require.TestingT) { require.ErrorIs(t, nil, sentinel) }},
		"ErrorAs":        {func(t require.TestingT) { require.ErrorAs(t, &myErr{}, &target) }, func(t require.TestingT) { require.ErrorAs(t, sentinel, &target) }},
		"ErrorContains":  {func(t require.TestingT) { require.ErrorContains(t, sentinel, "sent") }, func(t require.TestingT) { require.ErrorContains(t, sentinel, "x") }},
		"EqualError":     {func(t require.TestingT) { require.EqualError(t, sentinel, "sentinel") }, func(t require.TestingT) { require.EqualError(t, sentinel, "x") }},
		"InDelta":        {func(t require.TestingT) { require.InDelta(t, 1, 1.1, 0.2) }, func(t require.TestingT) { require.InDelta(t, 1, 2, 0.2) }},
		"IsType":         {func(t require.TestingT) { require.IsType(t, 1, 2) }, func(t require.TestingT) { require.IsType(t, 1, "2") }},
		"FileExists":     {func(t require.TestingT) { require.FileExists(t, file) }, func(t require.TestingT) { require.FileExists(t, dir) }},
		"NotPanics":      {func(t require.TestingT) { require.NotPanics(t, func() {}) }, func(t require.TestingT) { require.NotPanics(t, func() { panic(1) }) }},
	}
}

// TestFailNowAfterFailure: each function calls FailNow once after a
// failure it reported, and neither reports nor stops after a pass.
func TestFailNowAfterFailure(t *testing.T) {
	for name, pair := range pairs(t) {
		if pass := pair[0]; pass != nil {
			var f fakeT
			pass(&f)
			if len(f.errs) != 0 || f.failNows != 0 {
				t.Errorf("%s passing: reports %q, %d FailNow", name, f.errs, f.failNows)
			}
		}
		var f fakeT
		pair[1](&f)
		if len(f.errs) != 1 || f.failNows != 1 {
			t.Errorf("%s failing: reports %q, %d FailNow; want 1 and 1", name, f.errs, f.failNows)
		}
	}
}

// TestEveryFunctionCovered: require has each of assert's functions, and
// pairs covers each of require's.
func TestEveryFunctionCovered(t *testing.T) {
	exported := regexp.MustCompile(`(?m)^func ([A-Z]\w*)\(`)
	names := func(file string) []string {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, m := range exported.FindAllStringSubmatch(string(src), -1) {
			out = append(out, m[1])
		}
		return out
	}
	assertNames, requireNames := names("../assert/assert.go"), names("require.go")
	if strings.Join(assertNames, " ") != strings.Join(requireNames, " ") {
		t.Errorf("assert has %v\nrequire has %v", assertNames, requireNames)
	}
	covered := pairs(t)
	for _, n := range requireNames {
		if _, ok := covered[n]; !ok {
			t.Errorf("%s: no case", n)
		}
	}
	if len(covered) != len(requireNames) {
		t.Errorf("%d cases for %d functions", len(covered), len(requireNames))
	}
}

// TestStopsTheTest: with a real test, a failed require stops the test
// function where it failed (run in a child process so that the failure
// stays there).
func TestStopsTheTest(t *testing.T) {
	if os.Getenv("REQUIRE_FAIL_ON_PURPOSE") != "" {
		require.Equal(t, 1, 2)
		fmt.Println("AFTER THE FAILURE")
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestStopsTheTest$", "-test.count=1")
	cmd.Env = append(os.Environ(), "REQUIRE_FAIL_ON_PURPOSE=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the child run passed:\n%s", out)
	}
	src, err := os.ReadFile("require_test.go")
	require.NoError(t, err)
	line := 1 + strings.Count(string(src[:strings.Index(string(src), "require.Equal(t, 1, 2)")]), "\n")
	if !strings.Contains(string(out), fmt.Sprintf("require_test.go:%d: ", line)) || strings.Contains(string(out), "AFTER THE FAILURE") {
		t.Errorf("the child run:\n%s", out)
	}
	if strings.Contains(string(out), "require.go:") || strings.Contains(string(out), "assert.go:") {
		t.Errorf("a failure reported inside the package:\n%s", out)
	}
}
