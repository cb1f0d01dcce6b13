// Package assert holds the assertions hiplint's tests use, with the
// signatures and meaning of github.com/stretchr/testify/assert's functions
// of the same names, so that a test file moves from one to the other by its
// import path alone.
//
// It exists because testify/assert imports net/http and net/http/httptest,
// which bring 96 packages (crypto/tls, crypto/x509, net, ...) that no
// hiplint binary needs into the cold build of every test binary
// (docs/performance.md, "The cold build without testify").
//
// Each function reports a failure through t.Errorf and returns false; the
// functions of package require, of the same names, call t.FailNow after it.
// The optional msgAndArgs are a format string and its arguments, or one value
// printed with %+v.
//
// Where testify's behaviour is an accident rather than its documentation,
// these fail where it passes or panics: EqualValues compares numbers by
// value (testify's conversion to one type says -1 equals uint64's maximum)
// and never reads a number as a rune ("A" is not 65); Contains of a
// non-string in a string, Regexp with an invalid pattern and ErrorAs with
// a target errors.As would panic on fail.
package assert

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"reflect"
	"regexp"
	"runtime/debug"
	"strings"
	"time"
)

// TestingT is what the assertions need of a test: *testing.T, *testing.B
// and testing.TB have it.
type TestingT interface {
	Errorf(format string, args ...any)
}

// helperT is a TestingT that can mark its callers as helpers, so that a
// failure is reported at the test's line rather than this package's.
type helperT interface {
	Helper()
}

// Fail reports a failure with failureMessage.
func Fail(t TestingT, failureMessage string, msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	t.Errorf("\n%s", report(failureMessage, msgAndArgs))
	return false
}

// Equal asserts that expected and actual are equal: bytes.Equal for two
// []byte, reflect.DeepEqual otherwise, so that values of different types
// (1 and int64(1)) are never equal. Functions cannot be compared.
func Equal(t TestingT, expected, actual any, msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if err := comparable2(expected, actual); err != nil {
		return Fail(t, err.Error(), msgAndArgs...)
	}
	if objectsAreEqual(expected, actual) {
		return true
	}
	return Fail(t, "Not equal:\n"+unequal(expected, actual), msgAndArgs...)
}

// NotEqual asserts that expected and actual are not equal (as Equal
// compares them).
func NotEqual(t TestingT, expected, actual any, msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if err := comparable2(expected, actual); err != nil {
		return Fail(t, err.Error(), msgAndArgs...)
	}
	if !objectsAreEqual(expected, actual) {
		return true
	}
	return Fail(t, "Should not be: "+short(actual), msgAndArgs...)
}

// EqualValues asserts that expected and actual are equal, or equal once
// converted to one type: numbers compare by their value whatever their
// types (int 8 and uint64 8), other values once expected is converted to
// actual's type (a named string type and a string).
func EqualValues(t TestingT, expected, actual any, msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if objectsAreEqualValues(expected, actual) {
		return true
	}
	return Fail(t, "Not equal:\n"+unequal(expected, actual), msgAndArgs...)
}

// Same asserts that expected and actual are pointers of one type to the
// same object.
func Same(t TestingT, expected, actual any, msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	same, ok := samePointers(expected, actual)
	if !ok {
		return Fail(t, "Both arguments must be pointers", msgAndArgs...)
	}
	if !same {
		return Fail(t, fmt.Sprintf("Not same:\nexpected: %p %s\nactual  : %p %s", expected, short(expected), actual, short(actual)), msgAndArgs...)
	}
	return true
}

// NotSame asserts that expected and actual are pointers that do not point
// to the same object (pointers of different types never do).
func NotSame(t TestingT, expected, actual any, msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	same, ok := samePointers(expected, actual)
	if !ok {
		return Fail(t, "Both arguments must be pointers", msgAndArgs...)
	}
	if same {
		return Fail(t, fmt.Sprintf("Expected and actual point to the same object: %p %s", expected, short(expected)), msgAndArgs...)
	}
	return true
}

// Contains asserts that s contains contains: a substring of a string, an
// element of a slice or array (as Equal compares them), or a key of a map.
func Contains(t TestingT, s, contains any, msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	found, err := includes(s, contains)
	if err != nil {
		return Fail(t, err.Error(), msgAndArgs...)
	}
	if !found {
		return Fail(t, containerMessage(s, contains, "does not contain"), msgAndArgs...)
	}
	return true
}

// NotContains asserts that s does not contain contains (as Contains looks
// for it).
func NotContains(t TestingT, s, contains any, msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	found, err := includes(s, contains)
	if err != nil {
		return Fail(t, err.Error(), msgAndArgs...)
	}
	if found {
		return Fail(t, containerMessage(s, contains, "should not contain"), msgAndArgs...)
	}
	return true
}

// True asserts that value is true.
func True(t TestingT, value bool, msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !value {
		return Fail(t, "Should be true", msgAndArgs...)
	}
	return true
}

// False asserts that value is false.
func False(t TestingT, value bool, msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if value {
		return Fail(t, "Should be false", msgAndArgs...)
	}
	return true
}

// Empty asserts that object is empty: nil, a slice, map or channel of
// length 0, a nil pointer or a pointer to an empty value, or the zero value
// of its type ("", 0, false, a struct of zero fields, an array of zero
// elements).
func Empty(t TestingT, object any, msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !isEmpty(object) {
		return Fail(t, "Should be empty, but was "+short(object), msgAndArgs...)
	}
	return true
}

// NotEmpty asserts that object is not empty (as Empty defines it).
func NotEmpty(t TestingT, object any, msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if isEmpty(object) {
		return Fail(t, "Should NOT be empty, but was "+short(object), msgAndArgs...)
	}
	return true
}

// Len asserts that object (a string, slice, array, map or channel) has
// length length.
func Len(t TestingT, object any, length int, msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	n, ok := lenOf(object)
	if !ok {
		return Fail(t, fmt.Sprintf("%s could not be applied builtin len()", short(object)), msgAndArgs...)
	}
	if n != length {
		return Fail(t, fmt.Sprintf("%s should have %d item(s), but has %d", short(object), length, n), msgAndArgs...)
	}
	return true
}

// Nil asserts that object is nil: the nil interface, or a nil pointer,
// slice, map, channel, function or interface held in it.
func Nil(t TestingT, object any, msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !isNil(object) {
		return Fail(t, "Expected nil, but got: "+short(object), msgAndArgs...)
	}
	return true
}

// NotNil asserts that object is not nil (as Nil defines it).
func NotNil(t TestingT, object any, msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if isNil(object) {
		return Fail(t, fmt.Sprintf("Expected value not to be nil, but got: %s", short(object)), msgAndArgs...)
	}
	return true
}

// Zero asserts that i is the zero value of its type (or nil).
func Zero(t TestingT, i any, msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if i != nil && !reflect.DeepEqual(i, reflect.Zero(reflect.TypeOf(i)).Interface()) {
		return Fail(t, "Should be zero, but was "+short(i), msgAndArgs...)
	}
	return true
}

// NotZero asserts that i is not the zero value of its type, nor nil.
func NotZero(t TestingT, i any, msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if i == nil || reflect.DeepEqual(i, reflect.Zero(reflect.TypeOf(i)).Interface()) {
		return Fail(t, "Should not be zero, but was "+short(i), msgAndArgs...)
	}
	return true
}

// Regexp asserts that str matches rx: a *regexp.Regexp, or a value whose
// fmt.Sprint is the pattern. str is matched as fmt.Sprint prints it (a
// []byte as its bytes).
func Regexp(t TestingT, rx any, str any, msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	match, err := matchRegexp(rx, str)
	if err != nil {
		return Fail(t, err.Error(), msgAndArgs...)
	}
	if !match {
		return Fail(t, fmt.Sprintf("Expect %s to match %q", quoteBlock(str), pattern(rx)), msgAndArgs...)
	}
	return true
}

// NotRegexp asserts that str does not match rx (as Regexp matches it).
func NotRegexp(t TestingT, rx any, str any, msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	match, err := matchRegexp(rx, str)
	if err != nil {
		return Fail(t, err.Error(), msgAndArgs...)
	}
	if match {
		return Fail(t, fmt.Sprintf("Expect %s to NOT match %q", quoteBlock(str), pattern(rx)), msgAndArgs...)
	}
	return true
}

// Less asserts that e1 < e2: two numbers, strings, []byte or time.Time
// values of the same kind.
func Less(t TestingT, e1, e2 any, msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	return order(t, e1, e2, func(c int) bool { return c < 0 }, "%s is not less than %s", msgAndArgs)
}

// LessOrEqual asserts that e1 <= e2 (as Less compares them).
func LessOrEqual(t TestingT, e1, e2 any, msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	return order(t, e1, e2, func(c int) bool { return c <= 0 }, "%s is not less than or equal to %s", msgAndArgs)
}

// Greater asserts that e1 > e2 (as Less compares them).
func Greater(t TestingT, e1, e2 any, msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	return order(t, e1, e2, func(c int) bool { return c > 0 }, "%s is not greater than %s", msgAndArgs)
}

// GreaterOrEqual asserts that e1 >= e2 (as Less compares them).
func GreaterOrEqual(t TestingT, e1, e2 any, msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	return order(t, e1, e2, func(c int) bool { return c >= 0 }, "%s is not greater than or equal to %s", msgAndArgs)
}

// Positive asserts that e is greater than the zero value of its type.
func Positive(t TestingT, e any, msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if e == nil {
		return Fail(t, "nil is not positive", msgAndArgs...)
	}
	zero := reflect.Zero(reflect.TypeOf(e)).Interface()
	return order(t, e, zero, func(c int) bool { return c > 0 }, "%s is not positive%.0s", msgAndArgs)
}

// ElementsMatch asserts that listA and listB (slices or arrays) hold the
// same elements, each as many times, in any order. Two empty lists match.
func ElementsMatch(t TestingT, listA, listB any, msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if isEmpty(listA) && isEmpty(listB) {
		return true
	}
	for _, l := range []any{listA, listB} {
		if k := reflect.TypeOf(l); k == nil || (k.Kind() != reflect.Slice && k.Kind() != reflect.Array) {
			return Fail(t, fmt.Sprintf("%s is not a slice or an array", short(l)), msgAndArgs...)
		}
	}
	extraA, extraB := multisetDiff(listA, listB)
	if len(extraA) == 0 && len(extraB) == 0 {
		return true
	}
	var b strings.Builder
	b.WriteString("elements differ")
	if len(extraA) > 0 {
		fmt.Fprintf(&b, "\n\nextra elements in list A:\n%s", short(extraA))
	}
	if len(extraB) > 0 {
		fmt.Fprintf(&b, "\n\nextra elements in list B:\n%s", short(extraB))
	}
	fmt.Fprintf(&b, "\n\nlistA:\n%s\n\nlistB:\n%s", short(listA), short(listB))
	return Fail(t, b.String(), msgAndArgs...)
}

// JSONEq asserts that expected and actual are JSON documents of equal
// value, whatever their spacing and the order of object members.
func JSONEq(t TestingT, expected, actual string, msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	var e, a any
	if err := json.Unmarshal([]byte(expected), &e); err != nil {
		return Fail(t, fmt.Sprintf("Expected value (%q) is not valid JSON: %v", expected, err), msgAndArgs...)
	}
	if err := json.Unmarshal([]byte(actual), &a); err != nil {
		return Fail(t, fmt.Sprintf("Actual value (%q) is not valid JSON: %v", actual, err), msgAndArgs...)
	}
	if reflect.DeepEqual(e, a) {
		return true
	}
	return Fail(t, "Not equal (JSON):\n"+unequalLines(expected, actual, render(e), render(a)), msgAndArgs...)
}

// Error asserts that err is not nil.
func Error(t TestingT, err error, msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if err == nil {
		return Fail(t, "An error is expected but got nil.", msgAndArgs...)
	}
	return true
}

// NoError asserts that err is nil.
func NoError(t TestingT, err error, msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if err != nil {
		return Fail(t, fmt.Sprintf("Received unexpected error:\n%+v", err), msgAndArgs...)
	}
	return true
}

// ErrorIs asserts that errors.Is(err, target).
func ErrorIs(t TestingT, err, target error, msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if errors.Is(err, target) {
		return true
	}
	return Fail(t, fmt.Sprintf("Target error should be in err chain:\nexpected: %s\nin chain: %s", errText(target), chain(err)), msgAndArgs...)
}

// ErrorAs asserts that errors.As(err, target): an error in err's chain
// is assignable to what target points to, and is stored there.
func ErrorAs(t TestingT, err error, target any, msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if v := reflect.ValueOf(target); target == nil || v.Kind() != reflect.Pointer || v.IsNil() {
		return Fail(t, fmt.Sprintf("ErrorAs needs a non-nil pointer as its target, got %s", short(target)), msgAndArgs...)
	} else if e := v.Type().Elem(); e.Kind() != reflect.Interface && !e.Implements(errorType) {
		return Fail(t, fmt.Sprintf("ErrorAs needs a pointer to an interface or to a type that implements error as its target, got %T", target), msgAndArgs...)
	}
	if errors.As(err, target) {
		return true
	}
	return Fail(t, fmt.Sprintf("Should be in error chain:\nexpected: %s\nin chain: %s", reflect.TypeOf(target).Elem(), chain(err)), msgAndArgs...)
}

// ErrorContains asserts that err is not nil and its message contains
// contains.
func ErrorContains(t TestingT, err error, contains string, msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if err == nil {
		return Fail(t, fmt.Sprintf("An error is expected but got nil.\nexpected to contain: %q", contains), msgAndArgs...)
	}
	if !strings.Contains(err.Error(), contains) {
		return Fail(t, fmt.Sprintf("Error %q does not contain %q", err.Error(), contains), msgAndArgs...)
	}
	return true
}

// EqualError asserts that err is not nil and its message is errString.
func EqualError(t TestingT, err error, errString string, msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if err == nil {
		return Fail(t, fmt.Sprintf("An error is expected but got nil.\nexpected: %q", errString), msgAndArgs...)
	}
	if got := err.Error(); got != errString {
		return Fail(t, "Error message not equal:\n"+unequal(errString, got), msgAndArgs...)
	}
	return true
}

// InDelta asserts that the numbers expected and actual differ by at most
// delta. Two NaNs are within any delta of each other; one NaN is not.
func InDelta(t TestingT, expected, actual any, delta float64, msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	e, okE := toFloat(expected)
	a, okA := toFloat(actual)
	if !okE || !okA {
		return Fail(t, fmt.Sprintf("Parameters must be numerical: %s, %s", short(expected), short(actual)), msgAndArgs...)
	}
	if math.IsNaN(delta) || delta < 0 {
		return Fail(t, fmt.Sprintf("Delta must be a non-negative number, got %v", delta), msgAndArgs...)
	}
	if math.IsNaN(e) && math.IsNaN(a) {
		return true
	}
	if math.IsNaN(e) {
		return Fail(t, "Expected must not be NaN", msgAndArgs...)
	}
	if math.IsNaN(a) {
		return Fail(t, fmt.Sprintf("Expected %v with delta %v, but was NaN", e, delta), msgAndArgs...)
	}
	if e == a { // the same infinity
		return true
	}
	if d := math.Abs(e - a); !(d <= delta) {
		return Fail(t, fmt.Sprintf("Max difference between %v and %v allowed is %v, but difference was %v", e, a, delta, e-a), msgAndArgs...)
	}
	return true
}

// IsType asserts that object has the same type as expectedType.
func IsType(t TestingT, expectedType, object any, msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if reflect.TypeOf(object) != reflect.TypeOf(expectedType) {
		return Fail(t, fmt.Sprintf("Object expected to be of type %v, but was %v", reflect.TypeOf(expectedType), reflect.TypeOf(object)), msgAndArgs...)
	}
	return true
}

// FileExists asserts that path names a file, not a directory (a symbolic
// link counts as the file it is, not followed).
func FileExists(t TestingT, path string, msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	info, err := os.Lstat(path)
	if err != nil {
		if os.IsNotExist(err) {
			return Fail(t, fmt.Sprintf("unable to find file %q", path), msgAndArgs...)
		}
		return Fail(t, fmt.Sprintf("error when running os.Lstat(%q): %s", path, err), msgAndArgs...)
	}
	if info.IsDir() {
		return Fail(t, fmt.Sprintf("%q is a directory", path), msgAndArgs...)
	}
	return true
}

// NotPanics asserts that f returns without panicking.
func NotPanics(t TestingT, f func(), msgAndArgs ...any) bool {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if panicked, value, stack := didPanic(f); panicked {
		return Fail(t, fmt.Sprintf("func should not panic\n\tPanic value:\t%v\n\tPanic stack:\t%s", value, stack), msgAndArgs...)
	}
	return true
}

// didPanic calls f and says whether it panicked, with what and where.
func didPanic(f func()) (panicked bool, value any, stack string) {
	panicked = true
	defer func() {
		if panicked {
			value = recover()
			stack = string(debug.Stack())
		}
	}()
	f()
	panicked = false
	return
}

// objectsAreEqual is Equal's comparison.
func objectsAreEqual(expected, actual any) bool {
	if expected == nil || actual == nil {
		return expected == actual
	}
	if e, ok := expected.([]byte); ok {
		a, ok := actual.([]byte)
		if !ok {
			return false
		}
		if e == nil || a == nil {
			return e == nil && a == nil
		}
		return bytes.Equal(e, a)
	}
	return reflect.DeepEqual(expected, actual)
}

// comparable2 refuses functions, which Equal cannot compare.
func comparable2(expected, actual any) error {
	if expected == nil && actual == nil {
		return nil
	}
	if isFunc(expected) || isFunc(actual) {
		return fmt.Errorf("Invalid operation: %s == %s (cannot take func type as argument)", short(expected), short(actual))
	}
	return nil
}

func isFunc(v any) bool {
	return v != nil && reflect.TypeOf(v).Kind() == reflect.Func
}

// objectsAreEqualValues is EqualValues's comparison.
func objectsAreEqualValues(expected, actual any) bool {
	if objectsAreEqual(expected, actual) {
		return true
	}
	ev, av := reflect.ValueOf(expected), reflect.ValueOf(actual)
	if !ev.IsValid() || !av.IsValid() {
		return false
	}
	if isNumber(ev.Kind()) && isNumber(av.Kind()) {
		return numbersEqual(ev, av)
	}
	if av.Kind() == reflect.String && isNumber(ev.Kind()) {
		return false // string(rune(65)) is "A": that is not the value 65
	}
	if !ev.Type().ConvertibleTo(av.Type()) {
		return false
	}
	return reflect.DeepEqual(ev.Convert(av.Type()).Interface(), actual)
}

func isNumber(k reflect.Kind) bool {
	return isInt(k) || isUint(k) || isFloat(k)
}

func isInt(k reflect.Kind) bool {
	return k >= reflect.Int && k <= reflect.Int64
}

func isUint(k reflect.Kind) bool {
	return k >= reflect.Uint && k <= reflect.Uintptr
}

func isFloat(k reflect.Kind) bool {
	return k == reflect.Float32 || k == reflect.Float64
}

// numbersEqual compares two numbers by their value: no conversion to the
// smaller type wraps one of them around.
func numbersEqual(a, b reflect.Value) bool {
	switch {
	case isFloat(a.Kind()) || isFloat(b.Kind()):
		// float32(0.1) is not 0.1: the float32 converts exactly to the
		// float64 it is, and that differs.
		fa, _ := toFloat(a.Interface())
		fb, _ := toFloat(b.Interface())
		return fa == fb
	case isInt(a.Kind()) && isInt(b.Kind()):
		return a.Int() == b.Int()
	case isUint(a.Kind()) && isUint(b.Kind()):
		return a.Uint() == b.Uint()
	case isInt(a.Kind()):
		return a.Int() >= 0 && uint64(a.Int()) == b.Uint()
	default:
		return b.Int() >= 0 && uint64(b.Int()) == a.Uint()
	}
}

// toFloat converts a number (of any integer or float kind, time.Duration
// included) to float64.
func toFloat(x any) (float64, bool) {
	v := reflect.ValueOf(x)
	switch {
	case !v.IsValid():
		return 0, false
	case isInt(v.Kind()):
		return float64(v.Int()), true
	case isUint(v.Kind()):
		return float64(v.Uint()), true
	case isFloat(v.Kind()):
		return v.Float(), true
	}
	return 0, false
}

// samePointers says whether expected and actual are the same pointer; ok
// is false where either is not a pointer.
func samePointers(expected, actual any) (same, ok bool) {
	e, a := reflect.ValueOf(expected), reflect.ValueOf(actual)
	if e.Kind() != reflect.Pointer || a.Kind() != reflect.Pointer {
		return false, false
	}
	if e.Type() != a.Type() {
		return false, true
	}
	return e.Pointer() == a.Pointer(), true
}

// includes says whether s holds element: the substring of a string, an
// element of a slice or array, a key of a map.
func includes(s, element any) (bool, error) {
	v := reflect.ValueOf(s)
	switch v.Kind() {
	case reflect.String:
		ev := reflect.ValueOf(element)
		if ev.Kind() != reflect.String {
			return false, fmt.Errorf("%s: cannot look for %s, not a string, in a string", short(s), short(element))
		}
		return strings.Contains(v.String(), ev.String()), nil
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if objectsAreEqual(v.Index(i).Interface(), element) {
				return true, nil
			}
		}
		return false, nil
	case reflect.Map:
		for _, k := range v.MapKeys() {
			if objectsAreEqual(k.Interface(), element) {
				return true, nil
			}
		}
		return false, nil
	}
	return false, fmt.Errorf("%s could not be applied builtin len()", short(s))
}

// isEmpty is Empty's test.
func isEmpty(object any) bool {
	if object == nil {
		return true
	}
	v := reflect.ValueOf(object)
	switch v.Kind() {
	case reflect.Chan, reflect.Map, reflect.Slice:
		return v.Len() == 0
	case reflect.Pointer:
		if v.IsNil() {
			return true
		}
		return isEmpty(v.Elem().Interface())
	}
	return reflect.DeepEqual(object, reflect.Zero(v.Type()).Interface())
}

// lenOf is len(x) for what len applies to.
func lenOf(x any) (int, bool) {
	v := reflect.ValueOf(x)
	switch v.Kind() {
	case reflect.String, reflect.Slice, reflect.Array, reflect.Map, reflect.Chan:
		return v.Len(), true
	}
	return 0, false
}

// isNil is Nil's test.
func isNil(object any) bool {
	if object == nil {
		return true
	}
	v := reflect.ValueOf(object)
	switch v.Kind() {
	case reflect.Chan, reflect.Func, reflect.Interface, reflect.Map, reflect.Pointer, reflect.Slice, reflect.UnsafePointer:
		return v.IsNil()
	}
	return false
}

// matchRegexp matches str against rx.
func matchRegexp(rx, str any) (bool, error) {
	r, ok := rx.(*regexp.Regexp)
	if !ok {
		var err error
		if r, err = regexp.Compile(fmt.Sprint(rx)); err != nil {
			return false, fmt.Errorf("invalid regular expression %q: %v", fmt.Sprint(rx), err)
		}
	} else if r == nil {
		return false, errors.New("nil *regexp.Regexp")
	}
	if b, ok := str.([]byte); ok {
		return r.Match(b), nil
	}
	return r.MatchString(fmt.Sprint(str)), nil
}

func pattern(rx any) string {
	if r, ok := rx.(*regexp.Regexp); ok && r != nil {
		return r.String()
	}
	return fmt.Sprint(rx)
}

// order compares e1 and e2 and fails with format unless ok(compare).
func order(t TestingT, e1, e2 any, ok func(int) bool, format string, msgAndArgs []any) bool {
	if h, isH := t.(helperT); isH {
		h.Helper()
	}
	c, err := compare(e1, e2)
	if err != nil {
		return Fail(t, err.Error(), msgAndArgs...)
	}
	if c == unordered {
		return Fail(t, fmt.Sprintf("%s and %s are not ordered", short(e1), short(e2)), msgAndArgs...)
	}
	if !ok(c) {
		return Fail(t, fmt.Sprintf(format, short(e1), short(e2)), msgAndArgs...)
	}
	return true
}

var (
	timeType  = reflect.TypeFor[time.Time]()
	errorType = reflect.TypeFor[error]()
)

// unordered is compare's answer for a NaN.
const unordered = 2

// compare orders two values of one ordered kind: -1, 0 or 1. A NaN is
// neither less nor greater than anything, nor equal: compare says
// unordered.
func compare(e1, e2 any) (int, error) {
	a, b := reflect.ValueOf(e1), reflect.ValueOf(e2)
	if !a.IsValid() || !b.IsValid() {
		return 0, fmt.Errorf("cannot order %s and %s", short(e1), short(e2))
	}
	if a.Kind() != b.Kind() {
		return 0, fmt.Errorf("Elements should be the same type: %s and %s", short(e1), short(e2))
	}
	k := a.Kind()
	switch {
	case isInt(k):
		return cmp3(a.Int() < b.Int(), a.Int() > b.Int()), nil
	case isUint(k):
		return cmp3(a.Uint() < b.Uint(), a.Uint() > b.Uint()), nil
	case isFloat(k):
		x, y := a.Float(), b.Float()
		if math.IsNaN(x) || math.IsNaN(y) {
			return unordered, nil
		}
		return cmp3(x < y, x > y), nil
	case k == reflect.String:
		return strings.Compare(a.String(), b.String()), nil
	case k == reflect.Slice && a.Type().Elem().Kind() == reflect.Uint8 && b.Type().Elem().Kind() == reflect.Uint8:
		return bytes.Compare(a.Bytes(), b.Bytes()), nil
	case k == reflect.Struct && a.Type().ConvertibleTo(timeType) && b.Type().ConvertibleTo(timeType):
		return a.Convert(timeType).Interface().(time.Time).Compare(b.Convert(timeType).Interface().(time.Time)), nil
	}
	return 0, fmt.Errorf("Can not compare type %q", a.Type())
}

func cmp3(less, greater bool) int {
	switch {
	case less:
		return -1
	case greater:
		return 1
	}
	return 0
}

// multisetDiff returns the elements of a that b lacks and of b that a
// lacks, counting each as many times as it occurs.
func multisetDiff(a, b any) (extraA, extraB []any) {
	av, bv := reflect.ValueOf(a), reflect.ValueOf(b)
	used := make([]bool, bv.Len())
	for i := range av.Len() {
		x := av.Index(i).Interface()
		found := false
		for j := range bv.Len() {
			if !used[j] && objectsAreEqual(bv.Index(j).Interface(), x) {
				used[j], found = true, true
				break
			}
		}
		if !found {
			extraA = append(extraA, x)
		}
	}
	for j := range bv.Len() {
		if !used[j] {
			extraB = append(extraB, bv.Index(j).Interface())
		}
	}
	return extraA, extraB
}

// errText is an error's message, or nil.
func errText(err error) string {
	if err == nil {
		return "nil"
	}
	return fmt.Sprintf("%q", err.Error())
}

// chain lists err's chain of wrapped errors, with their types.
func chain(err error) string {
	if err == nil {
		return "nil"
	}
	var parts []string
	for queue := []error{err}; len(queue) > 0 && len(parts) < 20; {
		e := queue[0]
		queue = queue[1:]
		parts = append(parts, fmt.Sprintf("%T %q", e, e.Error()))
		switch u := e.(type) {
		case interface{ Unwrap() error }:
			if w := u.Unwrap(); w != nil {
				queue = append(queue, w)
			}
		case interface{ Unwrap() []error }:
			queue = append(queue, u.Unwrap()...)
		}
	}
	return strings.Join(parts, "\n          ")
}
