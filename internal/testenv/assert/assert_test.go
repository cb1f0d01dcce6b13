package assert_test

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

// fakeT records what an assertion would have failed a test with.
type fakeT struct {
	errs    []string
	helpers int
}

func (f *fakeT) Errorf(format string, args ...any) {
	f.errs = append(f.errs, fmt.Sprintf(format, args...))
}

func (f *fakeT) Helper() { f.helpers++ }

type point struct{ X, Y int }

type myInt int

type myStr string

type myErr struct{ msg string }

func (e *myErr) Error() string { return "myErr " + e.msg }

var sentinel = errors.New("sentinel")

// A case is one call of an assertion, whether it must pass, and for one
// that must fail, text its report must contain.
type tcase struct {
	name string
	call func(t assert.TestingT) bool
	pass bool
	want []string
}

func ok(name string, call func(t assert.TestingT) bool) tcase {
	return tcase{name: name, call: call, pass: true}
}

func bad(name string, call func(t assert.TestingT) bool, want ...string) tcase {
	return tcase{name: name, call: call, want: want}
}

func cases(t *testing.T) []tcase {
	x, y := 1, 1
	p, q := &point{1, 2}, &point{1, 2}
	var s struct{ A, B int }
	var nilPoint *point
	var typedNilErr error = (*myErr)(nil)
	early := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	late := early.Add(time.Second)
	full := make(chan int, 2)
	full <- 1
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var target *myErr
	wrapped := fmt.Errorf("context: %w", &myErr{"inner"})

	return []tcase{
		// Fail
		bad("Fail", func(t assert.TestingT) bool { return assert.Fail(t, "the failure") }, "Error:", "the failure"),

		// Equal: bytes.Equal for []byte, reflect.DeepEqual otherwise.
		ok("Equal ints", func(t assert.TestingT) bool { return assert.Equal(t, 1, 1) }),
		ok("Equal strings", func(t assert.TestingT) bool { return assert.Equal(t, "a", "a") }),
		ok("Equal bytes", func(t assert.TestingT) bool { return assert.Equal(t, []byte("x"), []byte("x")) }),
		ok("Equal nil nil", func(t assert.TestingT) bool { return assert.Equal(t, nil, nil) }),
		ok("Equal nil bytes", func(t assert.TestingT) bool { return assert.Equal(t, []byte(nil), []byte(nil)) }),
		ok("Equal slices", func(t assert.TestingT) bool { return assert.Equal(t, []int{1, 2}, []int{1, 2}) }),
		ok("Equal maps", func(t assert.TestingT) bool {
			return assert.Equal(t, map[string]int{"a": 1, "b": 2}, map[string]int{"b": 2, "a": 1})
		}),
		ok("Equal structs", func(t assert.TestingT) bool { return assert.Equal(t, point{1, 2}, point{1, 2}) }),
		ok("Equal pointers to equal values", func(t assert.TestingT) bool { return assert.Equal(t, p, q) }),
		bad("Equal int and int64", func(t assert.TestingT) bool { return assert.Equal(t, 1, int64(1)) }, "Not equal", "expected: int(1)", "actual  : int64(1)"),
		bad("Equal named int and int", func(t assert.TestingT) bool { return assert.Equal(t, myInt(1), 1) }, "assert_test.myInt(1)", "int(1)"),
		bad("Equal different ints", func(t assert.TestingT) bool { return assert.Equal(t, 1, 2) }, "expected: 1", "actual  : 2"),
		bad("Equal different strings", func(t assert.TestingT) bool { return assert.Equal(t, "a", "b") }, `expected: "a"`, `actual  : "b"`),
		bad("Equal different bytes", func(t assert.TestingT) bool { return assert.Equal(t, []byte("x"), []byte("y")) }),
		bad("Equal nil and empty bytes", func(t assert.TestingT) bool { return assert.Equal(t, []byte(nil), []byte{}) }),
		bad("Equal bytes and string", func(t assert.TestingT) bool { return assert.Equal(t, []byte("x"), "x") }),
		bad("Equal nil and typed nil", func(t assert.TestingT) bool { return assert.Equal(t, nil, nilPoint) }),
		bad("Equal different slices", func(t assert.TestingT) bool { return assert.Equal(t, []int{1}, []int{1, 2}) }),
		bad("Equal nil and empty slice", func(t assert.TestingT) bool { return assert.Equal(t, []int(nil), []int{}) }),
		bad("Equal different structs", func(t assert.TestingT) bool { return assert.Equal(t, point{1, 2}, point{1, 3}) },
			"Diff (- expected, + actual):", "-   Y: 2,", "+   Y: 3,", "    X: 1,"),
		bad("Equal funcs", func(t assert.TestingT) bool { return assert.Equal(t, func() {}, func() {}) }, "cannot take func type"),
		bad("Equal multi-line strings", func(t assert.TestingT) bool { return assert.Equal(t, "a\nb\nc\n", "a\nB\nc\n") },
			"- b", "+ B", "  a", "  c"),
		bad("Equal map values", func(t assert.TestingT) bool {
			return assert.Equal(t, map[string][]int{"k": {1, 2}}, map[string][]int{"k": {1, 3}})
		}, "-     2,", "+     3,"),

		// NotEqual
		ok("NotEqual", func(t assert.TestingT) bool { return assert.NotEqual(t, 1, 2) }),
		ok("NotEqual int and int64", func(t assert.TestingT) bool { return assert.NotEqual(t, 1, int64(1)) }),
		bad("NotEqual equal", func(t assert.TestingT) bool { return assert.NotEqual(t, 1, 1) }, "Should not be: 1"),
		bad("NotEqual equal bytes", func(t assert.TestingT) bool { return assert.NotEqual(t, []byte("a"), []byte("a")) }),
		bad("NotEqual funcs", func(t assert.TestingT) bool { return assert.NotEqual(t, func() {}, 1) }, "cannot take func type"),

		// EqualValues: numbers by value, other values after conversion.
		ok("EqualValues int uint64", func(t assert.TestingT) bool { return assert.EqualValues(t, 8, uint64(8)) }),
		ok("EqualValues int32 float64", func(t assert.TestingT) bool { return assert.EqualValues(t, int32(8), 8.0) }),
		ok("EqualValues named string", func(t assert.TestingT) bool { return assert.EqualValues(t, myStr("a"), "a") }),
		ok("EqualValues named int", func(t assert.TestingT) bool { return assert.EqualValues(t, myInt(3), 3) }),
		ok("EqualValues string bytes", func(t assert.TestingT) bool { return assert.EqualValues(t, "ab", []byte("ab")) }),
		bad("EqualValues different", func(t assert.TestingT) bool { return assert.EqualValues(t, 8, uint64(9)) }, "Not equal"),
		bad("EqualValues no wrap-around", func(t assert.TestingT) bool { return assert.EqualValues(t, -1, uint64(math.MaxUint64)) }),
		bad("EqualValues no truncation", func(t assert.TestingT) bool { return assert.EqualValues(t, 256, uint8(0)) }),
		bad("EqualValues float32 precision", func(t assert.TestingT) bool { return assert.EqualValues(t, float32(0.1), 0.1) }),
		bad("EqualValues int as rune", func(t assert.TestingT) bool { return assert.EqualValues(t, 65, "A") }),
		bad("EqualValues not convertible", func(t assert.TestingT) bool { return assert.EqualValues(t, []int{1}, []int64{1}) }),

		// Same, NotSame: pointer identity.
		ok("Same", func(t assert.TestingT) bool { return assert.Same(t, p, p) }),
		bad("Same equal values", func(t assert.TestingT) bool { return assert.Same(t, p, q) }, "Not same"),
		bad("Same not pointers", func(t assert.TestingT) bool { return assert.Same(t, *p, *p) }, "must be pointers"),
		bad("Same pointer and value", func(t assert.TestingT) bool { return assert.Same(t, p, *p) }, "must be pointers"),
		bad("Same address, other type", func(t assert.TestingT) bool { return assert.Same(t, any(&s), any(&s.A)) }),
		ok("NotSame", func(t assert.TestingT) bool { return assert.NotSame(t, p, q) }),
		ok("NotSame other type", func(t assert.TestingT) bool { return assert.NotSame(t, any(&s), any(&s.A)) }),
		bad("NotSame same", func(t assert.TestingT) bool { return assert.NotSame(t, p, p) }, "point to the same object"),
		bad("NotSame not pointers", func(t assert.TestingT) bool { return assert.NotSame(t, 1, 2) }, "must be pointers"),

		// Contains: substring, element, map key.
		ok("Contains substring", func(t assert.TestingT) bool { return assert.Contains(t, "hello", "ell") }),
		ok("Contains element", func(t assert.TestingT) bool { return assert.Contains(t, []string{"a", "b"}, "b") }),
		ok("Contains array element", func(t assert.TestingT) bool { return assert.Contains(t, [2]int{1, 2}, 2) }),
		ok("Contains map key", func(t assert.TestingT) bool { return assert.Contains(t, map[string]int{"k": 1}, "k") }),
		ok("Contains any element", func(t assert.TestingT) bool { return assert.Contains(t, []any{1, "x"}, "x") }),
		ok("Contains named string", func(t assert.TestingT) bool { return assert.Contains(t, myStr("abc"), "b") }),
		ok("Contains struct element", func(t assert.TestingT) bool { return assert.Contains(t, []point{{1, 2}}, point{1, 2}) }),
		bad("Contains missing substring", func(t assert.TestingT) bool { return assert.Contains(t, "hello", "z") }, `"hello" does not contain "z"`),
		bad("Contains map value", func(t assert.TestingT) bool { return assert.Contains(t, map[string]int{"k": 1}, 1) }),
		bad("Contains other type", func(t assert.TestingT) bool { return assert.Contains(t, []int{1}, int64(1)) }),
		bad("Contains non-string in string", func(t assert.TestingT) bool { return assert.Contains(t, "a1", 1) }, "not a string"),
		bad("Contains not a container", func(t assert.TestingT) bool { return assert.Contains(t, 5, 5) }, "could not be applied builtin len()"),
		bad("Contains nil", func(t assert.TestingT) bool { return assert.Contains(t, nil, "a") }, "could not be applied builtin len()"),
		bad("Contains in lines", func(t assert.TestingT) bool { return assert.Contains(t, "one\ntwo\n", "three") },
			`the text below does not contain "three"`, "    | one\n", "    | two"),
		ok("NotContains", func(t assert.TestingT) bool { return assert.NotContains(t, "hello", "z") }),
		ok("NotContains map value", func(t assert.TestingT) bool { return assert.NotContains(t, map[string]int{"k": 1}, 1) }),
		ok("NotContains other type", func(t assert.TestingT) bool { return assert.NotContains(t, []int{1}, int64(1)) }),
		bad("NotContains substring", func(t assert.TestingT) bool { return assert.NotContains(t, "hello", "ell") }, `"hello" should not contain "ell"`),
		bad("NotContains element", func(t assert.TestingT) bool { return assert.NotContains(t, []string{"a"}, "a") }),
		bad("NotContains map key", func(t assert.TestingT) bool { return assert.NotContains(t, map[int]bool{3: false}, 3) }),
		bad("NotContains not a container", func(t assert.TestingT) bool { return assert.NotContains(t, 5, 6) }, "could not be applied"),

		// True, False
		ok("True", func(t assert.TestingT) bool { return assert.True(t, true) }),
		bad("True false", func(t assert.TestingT) bool { return assert.True(t, false) }, "Should be true"),
		ok("False", func(t assert.TestingT) bool { return assert.False(t, false) }),
		bad("False true", func(t assert.TestingT) bool { return assert.False(t, true) }, "Should be false"),

		// Empty, NotEmpty
		ok("Empty nil", func(t assert.TestingT) bool { return assert.Empty(t, nil) }),
		ok("Empty string", func(t assert.TestingT) bool { return assert.Empty(t, "") }),
		ok("Empty zero", func(t assert.TestingT) bool { return assert.Empty(t, 0) }),
		ok("Empty false", func(t assert.TestingT) bool { return assert.Empty(t, false) }),
		ok("Empty slice", func(t assert.TestingT) bool { return assert.Empty(t, []int{}) }),
		ok("Empty nil slice", func(t assert.TestingT) bool { return assert.Empty(t, []int(nil)) }),
		ok("Empty map", func(t assert.TestingT) bool { return assert.Empty(t, map[string]int{}) }),
		ok("Empty chan", func(t assert.TestingT) bool { return assert.Empty(t, make(chan int, 1)) }),
		ok("Empty nil pointer", func(t assert.TestingT) bool { return assert.Empty(t, nilPoint) }),
		ok("Empty pointer to zero", func(t assert.TestingT) bool { return assert.Empty(t, new(int)) }),
		ok("Empty pointer to empty slice", func(t assert.TestingT) bool { return assert.Empty(t, &[]int{}) }),
		ok("Empty zero struct", func(t assert.TestingT) bool { return assert.Empty(t, point{}) }),
		ok("Empty zero array", func(t assert.TestingT) bool { return assert.Empty(t, [2]int{}) }),
		ok("Empty zero time", func(t assert.TestingT) bool { return assert.Empty(t, time.Time{}) }),
		bad("Empty nonempty string", func(t assert.TestingT) bool { return assert.Empty(t, "a") }, `Should be empty, but was "a"`),
		bad("Empty one", func(t assert.TestingT) bool { return assert.Empty(t, 1) }),
		bad("Empty true", func(t assert.TestingT) bool { return assert.Empty(t, true) }),
		bad("Empty nonempty slice", func(t assert.TestingT) bool { return assert.Empty(t, []int{0}) }),
		bad("Empty nonempty map", func(t assert.TestingT) bool { return assert.Empty(t, map[string]int{"k": 0}) }),
		bad("Empty nonempty chan", func(t assert.TestingT) bool { return assert.Empty(t, full) }),
		bad("Empty struct", func(t assert.TestingT) bool { return assert.Empty(t, point{0, 1}) }),
		bad("Empty pointer to struct", func(t assert.TestingT) bool { return assert.Empty(t, &point{1, 0}) }),
		bad("Empty array", func(t assert.TestingT) bool { return assert.Empty(t, [2]int{0, 1}) }),
		bad("Empty error", func(t assert.TestingT) bool { return assert.Empty(t, errors.New("x")) }),
		ok("NotEmpty", func(t assert.TestingT) bool { return assert.NotEmpty(t, []int{0}) }),
		ok("NotEmpty struct", func(t assert.TestingT) bool { return assert.NotEmpty(t, point{X: 1}) }),
		bad("NotEmpty empty", func(t assert.TestingT) bool { return assert.NotEmpty(t, []string{}) }, "Should NOT be empty"),
		bad("NotEmpty zero struct", func(t assert.TestingT) bool { return assert.NotEmpty(t, point{}) }),
		bad("NotEmpty nil", func(t assert.TestingT) bool { return assert.NotEmpty(t, nil) }),

		// Len
		ok("Len string", func(t assert.TestingT) bool { return assert.Len(t, "abc", 3) }),
		ok("Len slice", func(t assert.TestingT) bool { return assert.Len(t, []int{1, 2}, 2) }),
		ok("Len map", func(t assert.TestingT) bool { return assert.Len(t, map[int]int{1: 1}, 1) }),
		ok("Len array", func(t assert.TestingT) bool { return assert.Len(t, [3]int{}, 3) }),
		ok("Len chan", func(t assert.TestingT) bool { return assert.Len(t, full, 1) }),
		ok("Len nil slice", func(t assert.TestingT) bool { return assert.Len(t, []int(nil), 0) }),
		bad("Len short", func(t assert.TestingT) bool { return assert.Len(t, []int{1}, 2) }, "should have 2 item(s), but has 1"),
		bad("Len long", func(t assert.TestingT) bool { return assert.Len(t, "abcd", 3) }),
		bad("Len int", func(t assert.TestingT) bool { return assert.Len(t, 5, 1) }, "could not be applied builtin len()"),
		bad("Len nil", func(t assert.TestingT) bool { return assert.Len(t, nil, 0) }, "could not be applied builtin len()"),

		// Nil, NotNil: a typed nil pointer in an interface is nil.
		ok("Nil nil", func(t assert.TestingT) bool { return assert.Nil(t, nil) }),
		ok("Nil typed nil pointer", func(t assert.TestingT) bool { return assert.Nil(t, nilPoint) }),
		ok("Nil typed nil in error", func(t assert.TestingT) bool { return assert.Nil(t, typedNilErr) }),
		ok("Nil slice", func(t assert.TestingT) bool { return assert.Nil(t, []int(nil)) }),
		ok("Nil map", func(t assert.TestingT) bool { return assert.Nil(t, map[int]int(nil)) }),
		ok("Nil func", func(t assert.TestingT) bool { return assert.Nil(t, (func())(nil)) }),
		ok("Nil chan", func(t assert.TestingT) bool { return assert.Nil(t, (chan int)(nil)) }),
		bad("Nil zero", func(t assert.TestingT) bool { return assert.Nil(t, 0) }, "Expected nil, but got: 0"),
		bad("Nil empty string", func(t assert.TestingT) bool { return assert.Nil(t, "") }),
		bad("Nil empty slice", func(t assert.TestingT) bool { return assert.Nil(t, []int{}) }),
		bad("Nil pointer", func(t assert.TestingT) bool { return assert.Nil(t, &x) }),
		bad("Nil error", func(t assert.TestingT) bool { return assert.Nil(t, sentinel) }),
		ok("NotNil pointer", func(t assert.TestingT) bool { return assert.NotNil(t, &x) }),
		ok("NotNil empty slice", func(t assert.TestingT) bool { return assert.NotNil(t, []int{}) }),
		ok("NotNil zero", func(t assert.TestingT) bool { return assert.NotNil(t, 0) }),
		bad("NotNil nil", func(t assert.TestingT) bool { return assert.NotNil(t, nil) }, "Expected value not to be nil"),
		bad("NotNil typed nil pointer", func(t assert.TestingT) bool { return assert.NotNil(t, nilPoint) }),
		bad("NotNil typed nil in error", func(t assert.TestingT) bool { return assert.NotNil(t, typedNilErr) }),

		// Zero, NotZero
		ok("Zero int", func(t assert.TestingT) bool { return assert.Zero(t, 0) }),
		ok("Zero string", func(t assert.TestingT) bool { return assert.Zero(t, "") }),
		ok("Zero nil", func(t assert.TestingT) bool { return assert.Zero(t, nil) }),
		ok("Zero struct", func(t assert.TestingT) bool { return assert.Zero(t, point{}) }),
		ok("Zero nil slice", func(t assert.TestingT) bool { return assert.Zero(t, []int(nil)) }),
		bad("Zero one", func(t assert.TestingT) bool { return assert.Zero(t, 1) }, "Should be zero, but was 1"),
		bad("Zero empty slice", func(t assert.TestingT) bool { return assert.Zero(t, []int{}) }),
		bad("Zero nonzero struct", func(t assert.TestingT) bool { return assert.Zero(t, point{1, 0}) }),
		ok("NotZero", func(t assert.TestingT) bool { return assert.NotZero(t, 1) }),
		ok("NotZero empty slice", func(t assert.TestingT) bool { return assert.NotZero(t, []int{}) }),
		bad("NotZero zero", func(t assert.TestingT) bool { return assert.NotZero(t, 0) }, "Should not be zero"),
		bad("NotZero nil", func(t assert.TestingT) bool { return assert.NotZero(t, nil) }),
		bad("NotZero empty string", func(t assert.TestingT) bool { return assert.NotZero(t, "") }),

		// Regexp, NotRegexp
		ok("Regexp", func(t assert.TestingT) bool { return assert.Regexp(t, "^a.c$", "abc") }),
		ok("Regexp partial", func(t assert.TestingT) bool { return assert.Regexp(t, "b", "abc") }),
		ok("Regexp compiled", func(t assert.TestingT) bool { return assert.Regexp(t, regexp.MustCompile(`\d+`), "a12") }),
		ok("Regexp Sprint", func(t assert.TestingT) bool { return assert.Regexp(t, `^1\d$`, 12) }),
		ok("Regexp bytes", func(t assert.TestingT) bool { return assert.Regexp(t, "^xy$", []byte("xy")) }),
		bad("Regexp no match", func(t assert.TestingT) bool { return assert.Regexp(t, "^b", "abc") }, `Expect "abc" to match "^b"`),
		bad("Regexp lines", func(t assert.TestingT) bool { return assert.Regexp(t, "^b$", "a\nc") }, "    | a\n", "    | c"),
		bad("Regexp invalid", func(t assert.TestingT) bool { return assert.Regexp(t, "[", "a") }, "invalid regular expression"),
		ok("NotRegexp", func(t assert.TestingT) bool { return assert.NotRegexp(t, "^b", "abc") }),
		bad("NotRegexp match", func(t assert.TestingT) bool { return assert.NotRegexp(t, "b", "abc") }, "to NOT match"),
		bad("NotRegexp invalid", func(t assert.TestingT) bool { return assert.NotRegexp(t, "(", "a") }, "invalid regular expression"),

		// Less, LessOrEqual, Greater, GreaterOrEqual: ordered values of one kind.
		ok("Less ints", func(t assert.TestingT) bool { return assert.Less(t, 1, 2) }),
		ok("Less strings", func(t assert.TestingT) bool { return assert.Less(t, "a", "b") }),
		ok("Less floats", func(t assert.TestingT) bool { return assert.Less(t, 1.5, 2.5) }),
		ok("Less uint8", func(t assert.TestingT) bool { return assert.Less(t, uint8(1), uint8(200)) }),
		ok("Less times", func(t assert.TestingT) bool { return assert.Less(t, early, late) }),
		ok("Less bytes", func(t assert.TestingT) bool { return assert.Less(t, []byte("a"), []byte("b")) }),
		ok("Less durations", func(t assert.TestingT) bool { return assert.Less(t, time.Second, time.Minute) }),
		bad("Less greater", func(t assert.TestingT) bool { return assert.Less(t, 2, 1) }, "2 is not less than 1"),
		bad("Less equal", func(t assert.TestingT) bool { return assert.Less(t, 1, 1) }),
		bad("Less later time", func(t assert.TestingT) bool { return assert.Less(t, late, early) }),
		bad("Less kinds", func(t assert.TestingT) bool { return assert.Less(t, 1, int64(2)) }, "should be the same type"),
		bad("Less int and string", func(t assert.TestingT) bool { return assert.Less(t, 1, "a") }, "should be the same type"),
		bad("Less structs", func(t assert.TestingT) bool { return assert.Less(t, point{}, point{1, 1}) }, "Can not compare"),
		bad("Less NaN", func(t assert.TestingT) bool { return assert.Less(t, math.NaN(), 1.0) }),
		bad("Less nil", func(t assert.TestingT) bool { return assert.Less(t, nil, 1) }),
		ok("LessOrEqual equal", func(t assert.TestingT) bool { return assert.LessOrEqual(t, 1, 1) }),
		ok("LessOrEqual less", func(t assert.TestingT) bool { return assert.LessOrEqual(t, "a", "b") }),
		bad("LessOrEqual greater", func(t assert.TestingT) bool { return assert.LessOrEqual(t, 2, 1) }, "2 is not less than or equal to 1"),
		bad("LessOrEqual NaN", func(t assert.TestingT) bool { return assert.LessOrEqual(t, math.NaN(), math.NaN()) }),
		ok("Greater", func(t assert.TestingT) bool { return assert.Greater(t, 2, 1) }),
		ok("Greater uint", func(t assert.TestingT) bool { return assert.Greater(t, uint(2), uint(1)) }),
		bad("Greater equal", func(t assert.TestingT) bool { return assert.Greater(t, 1, 1) }, "1 is not greater than 1"),
		bad("Greater less", func(t assert.TestingT) bool { return assert.Greater(t, -1, 1) }),
		ok("GreaterOrEqual equal", func(t assert.TestingT) bool { return assert.GreaterOrEqual(t, 1, 1) }),
		ok("GreaterOrEqual greater", func(t assert.TestingT) bool { return assert.GreaterOrEqual(t, 2.0, 1.0) }),
		bad("GreaterOrEqual less", func(t assert.TestingT) bool { return assert.GreaterOrEqual(t, 1, 2) }, "1 is not greater than or equal to 2"),

		// Positive
		ok("Positive int", func(t assert.TestingT) bool { return assert.Positive(t, 1) }),
		ok("Positive float", func(t assert.TestingT) bool { return assert.Positive(t, 0.5) }),
		ok("Positive uint", func(t assert.TestingT) bool { return assert.Positive(t, uint(1)) }),
		ok("Positive duration", func(t assert.TestingT) bool { return assert.Positive(t, time.Nanosecond) }),
		bad("Positive zero", func(t assert.TestingT) bool { return assert.Positive(t, 0) }, "0 is not positive"),
		bad("Positive negative", func(t assert.TestingT) bool { return assert.Positive(t, -1) }),
		bad("Positive zero float", func(t assert.TestingT) bool { return assert.Positive(t, 0.0) }),
		bad("Positive NaN", func(t assert.TestingT) bool { return assert.Positive(t, math.NaN()) }),
		bad("Positive nil", func(t assert.TestingT) bool { return assert.Positive(t, nil) }),

		// ElementsMatch: the same multiset.
		ok("ElementsMatch reordered", func(t assert.TestingT) bool { return assert.ElementsMatch(t, []int{1, 2, 2}, []int{2, 1, 2}) }),
		ok("ElementsMatch empty and nil", func(t assert.TestingT) bool { return assert.ElementsMatch(t, []int{}, []int(nil)) }),
		ok("ElementsMatch nil and empty", func(t assert.TestingT) bool { return assert.ElementsMatch(t, nil, []string{}) }),
		ok("ElementsMatch array and slice", func(t assert.TestingT) bool {
			return assert.ElementsMatch(t, [2]string{"a", "b"}, []string{"b", "a"})
		}),
		ok("ElementsMatch nested", func(t assert.TestingT) bool {
			return assert.ElementsMatch(t, [][]string{{"a"}, {"b", "c"}}, [][]string{{"b", "c"}, {"a"}})
		}),
		bad("ElementsMatch duplicates differ", func(t assert.TestingT) bool { return assert.ElementsMatch(t, []int{1, 2, 2}, []int{1, 1, 2}) },
			"extra elements in list A:", "[]interface {}{2}", "extra elements in list B:", "[]interface {}{1}"),
		bad("ElementsMatch one more", func(t assert.TestingT) bool { return assert.ElementsMatch(t, []int{1}, []int{1, 1}) }, "extra elements in list B"),
		bad("ElementsMatch element types", func(t assert.TestingT) bool { return assert.ElementsMatch(t, []int{1}, []int64{1}) }),
		bad("ElementsMatch different", func(t assert.TestingT) bool { return assert.ElementsMatch(t, []string{"a"}, []string{"b"}) }),
		bad("ElementsMatch one empty", func(t assert.TestingT) bool { return assert.ElementsMatch(t, []string{"a"}, []string{}) }),
		bad("ElementsMatch not a list", func(t assert.TestingT) bool { return assert.ElementsMatch(t, 1, []int{1}) }, "not a slice or an array"),
		bad("ElementsMatch maps", func(t assert.TestingT) bool {
			return assert.ElementsMatch(t, map[int]int{1: 1}, map[int]int{1: 1})
		}, "not a slice or an array"),

		// JSONEq
		ok("JSONEq member order", func(t assert.TestingT) bool { return assert.JSONEq(t, `{"a":1,"b":[1,2]}`, `{ "b": [1, 2], "a": 1 }`) }),
		ok("JSONEq null", func(t assert.TestingT) bool { return assert.JSONEq(t, "null", "null") }),
		ok("JSONEq number spelling", func(t assert.TestingT) bool { return assert.JSONEq(t, "3", "3.0") }),
		bad("JSONEq value", func(t assert.TestingT) bool { return assert.JSONEq(t, `{"a":1}`, `{"a":2}`) }, "Not equal (JSON)", `-   "a": float64(1),`, `+   "a": float64(2),`),
		bad("JSONEq array order", func(t assert.TestingT) bool { return assert.JSONEq(t, "[1,2]", "[2,1]") }),
		bad("JSONEq null and number", func(t assert.TestingT) bool { return assert.JSONEq(t, "null", "3") }),
		bad("JSONEq string and number", func(t assert.TestingT) bool { return assert.JSONEq(t, `"3"`, "3") }),
		bad("JSONEq invalid expected", func(t assert.TestingT) bool { return assert.JSONEq(t, "{", "{}") }, "Expected value", "not valid JSON"),
		bad("JSONEq invalid actual", func(t assert.TestingT) bool { return assert.JSONEq(t, "{}", "") }, "Actual value", "not valid JSON"),

		// Error, NoError, ErrorIs, ErrorAs, ErrorContains, EqualError
		ok("Error", func(t assert.TestingT) bool { return assert.Error(t, sentinel) }),
		bad("Error nil", func(t assert.TestingT) bool { return assert.Error(t, nil) }, "An error is expected but got nil."),
		ok("NoError", func(t assert.TestingT) bool { return assert.NoError(t, nil) }),
		bad("NoError error", func(t assert.TestingT) bool { return assert.NoError(t, sentinel) }, "Received unexpected error:", "sentinel"),
		bad("NoError typed nil", func(t assert.TestingT) bool { return assert.NoError(t, typedNilErr) }),
		ok("ErrorIs wrapped", func(t assert.TestingT) bool { return assert.ErrorIs(t, fmt.Errorf("x: %w", sentinel), sentinel) }),
		ok("ErrorIs joined", func(t assert.TestingT) bool {
			return assert.ErrorIs(t, errors.Join(errors.New("a"), sentinel), sentinel)
		}),
		ok("ErrorIs fs", func(t assert.TestingT) bool {
			_, err := os.Open(filepath.Join(dir, "missing"))
			return assert.ErrorIs(t, err, fs.ErrNotExist)
		}),
		ok("ErrorIs nil nil", func(t assert.TestingT) bool { return assert.ErrorIs(t, nil, nil) }),
		bad("ErrorIs other", func(t assert.TestingT) bool { return assert.ErrorIs(t, errors.New("sentinel"), sentinel) },
			"Target error should be in err chain", `*errors.errorString "sentinel"`),
		bad("ErrorIs nil", func(t assert.TestingT) bool { return assert.ErrorIs(t, nil, sentinel) }),
		ok("ErrorAs", func(t assert.TestingT) bool {
			target = nil
			return assert.ErrorAs(t, wrapped, &target) && target != nil && target.msg == "inner"
		}),
		bad("ErrorAs other", func(t assert.TestingT) bool { return assert.ErrorAs(t, sentinel, &target) }, "Should be in error chain", "*assert_test.myErr"),
		bad("ErrorAs nil", func(t assert.TestingT) bool { return assert.ErrorAs(t, nil, &target) }),
		bad("ErrorAs pointer to a non-error", func(t assert.TestingT) bool { return assert.ErrorAs(t, wrapped, target) }, "implements error"),
		bad("ErrorAs nil target", func(t assert.TestingT) bool { return assert.ErrorAs(t, wrapped, nil) }, "non-nil pointer"),
		bad("ErrorAs not a pointer", func(t assert.TestingT) bool { return assert.ErrorAs(t, wrapped, myErr{}) }, "non-nil pointer"),
		ok("ErrorContains", func(t assert.TestingT) bool { return assert.ErrorContains(t, wrapped, "inner") }),
		bad("ErrorContains missing", func(t assert.TestingT) bool { return assert.ErrorContains(t, wrapped, "outer") }, `does not contain "outer"`),
		bad("ErrorContains nil", func(t assert.TestingT) bool { return assert.ErrorContains(t, nil, "") }, "An error is expected but got nil."),
		ok("EqualError", func(t assert.TestingT) bool { return assert.EqualError(t, sentinel, "sentinel") }),
		bad("EqualError other", func(t assert.TestingT) bool { return assert.EqualError(t, sentinel, "sentinel!") }, "Error message not equal"),
		bad("EqualError nil", func(t assert.TestingT) bool { return assert.EqualError(t, nil, "x") }, "An error is expected but got nil."),

		// InDelta
		ok("InDelta close", func(t assert.TestingT) bool { return assert.InDelta(t, 0.52, 0.52+1e-10, 1e-9) }),
		ok("InDelta ints", func(t assert.TestingT) bool { return assert.InDelta(t, 1, 1.4, 0.5) }),
		ok("InDelta edge", func(t assert.TestingT) bool { return assert.InDelta(t, 1.0, 1.5, 0.5) }),
		ok("InDelta kinds", func(t assert.TestingT) bool { return assert.InDelta(t, uint8(3), int64(4), 1) }),
		ok("InDelta NaNs", func(t assert.TestingT) bool { return assert.InDelta(t, math.NaN(), math.NaN(), 1) }),
		ok("InDelta infinities", func(t assert.TestingT) bool { return assert.InDelta(t, math.Inf(1), math.Inf(1), 0) }),
		bad("InDelta far", func(t assert.TestingT) bool { return assert.InDelta(t, 1, 2, 0.5) }, "Max difference between 1 and 2 allowed is 0.5"),
		bad("InDelta negative side", func(t assert.TestingT) bool { return assert.InDelta(t, 2, 1, 0.5) }),
		bad("InDelta string", func(t assert.TestingT) bool { return assert.InDelta(t, "a", 1, 1) }, "must be numerical"),
		bad("InDelta expected NaN", func(t assert.TestingT) bool { return assert.InDelta(t, math.NaN(), 1, 1) }),
		bad("InDelta actual NaN", func(t assert.TestingT) bool { return assert.InDelta(t, 1, math.NaN(), 1) }),
		bad("InDelta opposite infinities", func(t assert.TestingT) bool { return assert.InDelta(t, math.Inf(1), math.Inf(-1), 1) }),
		bad("InDelta negative delta", func(t assert.TestingT) bool { return assert.InDelta(t, 1, 1, -1) }),

		// IsType
		ok("IsType map", func(t assert.TestingT) bool { return assert.IsType(t, map[string]any{}, map[string]any{"a": 1}) }),
		ok("IsType pointer", func(t assert.TestingT) bool { return assert.IsType(t, &point{}, p) }),
		bad("IsType value and pointer", func(t assert.TestingT) bool { return assert.IsType(t, point{}, p) }, "expected to be of type assert_test.point, but was *assert_test.point"),
		bad("IsType int64", func(t assert.TestingT) bool { return assert.IsType(t, 1, int64(1)) }),

		// FileExists
		ok("FileExists", func(t assert.TestingT) bool { return assert.FileExists(t, file) }),
		bad("FileExists directory", func(t assert.TestingT) bool { return assert.FileExists(t, dir) }, "is a directory"),
		bad("FileExists missing", func(t assert.TestingT) bool { return assert.FileExists(t, file+"x") }, "unable to find file"),

		// NotPanics
		ok("NotPanics", func(t assert.TestingT) bool { return assert.NotPanics(t, func() { _ = x + y }) }),
		bad("NotPanics panic", func(t assert.TestingT) bool { return assert.NotPanics(t, func() { panic("boom") }) }, "should not panic", "Panic value:\tboom"),
		bad("NotPanics nil panic", func(t assert.TestingT) bool { return assert.NotPanics(t, func() { panic(nil) }) }, "should not panic"),
	}
}

// TestEachAssertion runs each case: one that must pass reports nothing
// and returns true; one that must fail returns false and reports once,
// with the text the case names, marking its callers as helpers.
func TestEachAssertion(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range cases(t) {
		if seen[c.name] {
			t.Fatalf("two cases named %q", c.name)
		}
		seen[c.name] = true
		var f fakeT
		got := c.call(&f)
		switch {
		case got != c.pass:
			t.Errorf("%s: returned %v, want %v (reports: %q)", c.name, got, c.pass, f.errs)
		case c.pass && len(f.errs) > 0:
			t.Errorf("%s: passed but reported %q", c.name, f.errs)
		case !c.pass && len(f.errs) != 1:
			t.Errorf("%s: failed with %d reports, want 1: %q", c.name, len(f.errs), f.errs)
		case !c.pass && f.helpers == 0:
			t.Errorf("%s: failed without marking a helper", c.name)
		}
		for _, w := range c.want {
			if len(f.errs) == 1 && !strings.Contains(f.errs[0], w) {
				t.Errorf("%s: report lacks %q:\n%s", c.name, w, f.errs[0])
			}
		}
	}
}

// TestEveryAssertionHasBothOutcomes: each exported assertion has a case
// that passes and one that fails (Fail only fails), so none of the call
// sites can be vacuous without a case here showing it.
func TestEveryAssertionHasBothOutcomes(t *testing.T) {
	src, err := os.ReadFile("assert.go")
	if err != nil {
		t.Fatal(err)
	}
	names := regexp.MustCompile(`(?m)^func ([A-Z]\w*)\(`).FindAllStringSubmatch(string(src), -1)
	if len(names) < 30 {
		t.Fatalf("found %d exported functions in assert.go", len(names))
	}
	outcomes := map[string]map[bool]bool{}
	for _, c := range cases(t) {
		fn := strings.Fields(c.name)[0]
		if outcomes[fn] == nil {
			outcomes[fn] = map[bool]bool{}
		}
		outcomes[fn][c.pass] = true
	}
	for _, n := range names {
		fn := n[1]
		if !outcomes[fn][false] {
			t.Errorf("%s: no case that must fail", fn)
		}
		if !outcomes[fn][true] && fn != "Fail" {
			t.Errorf("%s: no case that must pass", fn)
		}
	}
}

// TestMessages: the optional message is a format and its arguments, or
// one value; a lone string is not a format.
func TestMessages(t *testing.T) {
	for _, c := range []struct {
		args []any
		want string
	}{
		{[]any{"context %d of %s", 7, "x"}, "Messages:    context 7 of x"},
		{[]any{"100% sure"}, "Messages:    100% sure"},
		{[]any{42}, "Messages:    42"},
		{[]any{point{1, 2}}, "Messages:    {X:1 Y:2}"},
	} {
		var f fakeT
		assert.Equal(&f, 1, 2, c.args...)
		if len(f.errs) != 1 || !strings.Contains(f.errs[0], c.want) {
			t.Errorf("%v: got %q, want %q in it", c.args, f.errs, c.want)
		}
	}
	var f fakeT
	assert.Equal(&f, 1, 2)
	if len(f.errs) != 1 || strings.Contains(f.errs[0], "Messages") {
		t.Errorf("no message: got %q", f.errs)
	}
}

// TestLongDiff: a long text with two changed lines far apart shows both
// changes with their context and counts the equal lines between.
func TestLongDiff(t *testing.T) {
	var a, b []string
	for i := range 40 {
		a = append(a, fmt.Sprintf("line %d", i))
	}
	b = append(b, a...)
	b[5], b[30] = "changed 5", "changed 30"
	b = append(b, "added")
	var f fakeT
	assert.Equal(&f, strings.Join(a, "\n"), strings.Join(b, "\n"))
	if len(f.errs) != 1 {
		t.Fatalf("got %q", f.errs)
	}
	for _, w := range []string{"- line 5\n", "+ changed 5\n", "- line 30\n", "+ changed 30\n", "+ added", "  line 2\n", "  line 8\n", "(2 equal lines)", "(18 equal lines)"} {
		if !strings.Contains(f.errs[0], w) {
			t.Errorf("report lacks %q:\n%s", w, f.errs[0])
		}
	}
	if strings.Contains(f.errs[0], "  line 15\n") {
		t.Errorf("report shows an equal line far from any change:\n%s", f.errs[0])
	}
}

// TestCyclicValue: a value that points to itself is printed, not followed
// forever.
func TestCyclicValue(t *testing.T) {
	type node struct {
		Name string
		Next *node
	}
	a := &node{Name: "a"}
	a.Next = a
	b := &node{Name: "b"}
	b.Next = b
	var f fakeT
	assert.Equal(&f, a, b)
	if len(f.errs) != 1 || !strings.Contains(f.errs[0], `-   Name: "a",`) || !strings.Contains(f.errs[0], "cycle") {
		t.Errorf("got %q", f.errs)
	}
}

func notAHelper(t assert.TestingT) bool {
	return assert.True(t, false)
}

// TestTrace: a failure through a function that is not marked as a helper
// lists both lines; a direct one lists none.
func TestTrace(t *testing.T) {
	var f fakeT
	notAHelper(&f)
	assert.True(&f, false)
	if len(f.errs) != 2 {
		t.Fatalf("got %q", f.errs)
	}
	if !strings.Contains(f.errs[0], "Error Trace: assert/assert_test.go:") || strings.Count(f.errs[0], "assert_test.go:") != 2 {
		t.Errorf("through a helper: %s", f.errs[0])
	}
	if strings.Contains(f.errs[1], "Error Trace") {
		t.Errorf("direct: %s", f.errs[1])
	}
}

// TestFailureLine runs this test binary on TestFailingOnPurpose and checks
// that testing reports each failure at the line of the assertion's call,
// not inside this package: every assertion marks itself as a helper.
func TestFailureLine(t *testing.T) {
	if os.Getenv("ASSERT_FAIL_ON_PURPOSE") != "" {
		t.Skip("the child run")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestFailingOnPurpose$", "-test.count=1")
	cmd.Env = append(os.Environ(), "ASSERT_FAIL_ON_PURPOSE=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the child run passed:\n%s", out)
	}
	src, err := os.ReadFile("assert_test.go")
	if err != nil {
		t.Fatal(err)
	}
	var lines []int
	for i, l := range strings.Split(string(src), "\n") {
		if strings.HasSuffix(l, "// failure line") && !strings.Contains(l, "HasSuffix") {
			lines = append(lines, i+1)
		}
	}
	if len(lines) != 4 {
		t.Fatalf("found %d marked lines", len(lines))
	}
	for _, n := range lines {
		if want := fmt.Sprintf("assert_test.go:%d: ", n); !strings.Contains(string(out), want) {
			t.Errorf("no failure reported at %q:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), "assert.go:") || strings.Contains(string(out), "format.go:") {
		t.Errorf("a failure reported inside the package:\n%s", out)
	}
}

// TestFailingOnPurpose fails, only when TestFailureLine runs it.
func TestFailingOnPurpose(t *testing.T) {
	if os.Getenv("ASSERT_FAIL_ON_PURPOSE") == "" {
		t.Skip("run by TestFailureLine")
	}
	assert.Equal(t, 1, 2)            // failure line
	assert.Positive(t, -1)           // failure line
	assert.Contains(t, "abc", "z")   // failure line
	assert.ElementsMatch(t, 1, 2, 3) // failure line
}
