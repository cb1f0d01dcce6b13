// Package require holds the assertions of package assert, each of which
// stops the test (t.FailNow) when it fails, as
// github.com/stretchr/testify/require's functions of the same names do.
package require

import "github.com/hiplint/hiplint/internal/testenv/assert"

// TestingT is what the assertions need of a test: *testing.T, *testing.B
// and testing.TB have it.
type TestingT interface {
	Errorf(format string, args ...any)
	FailNow()
}

type helperT interface {
	Helper()
}

// Fail reports a failure with failureMessage and stops the test.
func Fail(t TestingT, failureMessage string, msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.Fail(t, failureMessage, msgAndArgs...) {
		t.FailNow()
	}
}

// Equal is assert.Equal, then t.FailNow() if it failed.
func Equal(t TestingT, expected, actual any, msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.Equal(t, expected, actual, msgAndArgs...) {
		t.FailNow()
	}
}

// NotEqual is assert.NotEqual, then t.FailNow() if it failed.
func NotEqual(t TestingT, expected, actual any, msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.NotEqual(t, expected, actual, msgAndArgs...) {
		t.FailNow()
	}
}

// EqualValues is assert.EqualValues, then t.FailNow() if it failed.
func EqualValues(t TestingT, expected, actual any, msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.EqualValues(t, expected, actual, msgAndArgs...) {
		t.FailNow()
	}
}

// Same is assert.Same, then t.FailNow() if it failed.
func Same(t TestingT, expected, actual any, msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.Same(t, expected, actual, msgAndArgs...) {
		t.FailNow()
	}
}

// NotSame is assert.NotSame, then t.FailNow() if it failed.
func NotSame(t TestingT, expected, actual any, msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.NotSame(t, expected, actual, msgAndArgs...) {
		t.FailNow()
	}
}

// Contains is assert.Contains, then t.FailNow() if it failed.
func Contains(t TestingT, s, contains any, msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.Contains(t, s, contains, msgAndArgs...) {
		t.FailNow()
	}
}

// NotContains is assert.NotContains, then t.FailNow() if it failed.
func NotContains(t TestingT, s, contains any, msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.NotContains(t, s, contains, msgAndArgs...) {
		t.FailNow()
	}
}

// True is assert.True, then t.FailNow() if it failed.
func True(t TestingT, value bool, msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.True(t, value, msgAndArgs...) {
		t.FailNow()
	}
}

// False is assert.False, then t.FailNow() if it failed.
func False(t TestingT, value bool, msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.False(t, value, msgAndArgs...) {
		t.FailNow()
	}
}

// Empty is assert.Empty, then t.FailNow() if it failed.
func Empty(t TestingT, object any, msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.Empty(t, object, msgAndArgs...) {
		t.FailNow()
	}
}

// NotEmpty is assert.NotEmpty, then t.FailNow() if it failed.
func NotEmpty(t TestingT, object any, msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.NotEmpty(t, object, msgAndArgs...) {
		t.FailNow()
	}
}

// Len is assert.Len, then t.FailNow() if it failed.
func Len(t TestingT, object any, length int, msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.Len(t, object, length, msgAndArgs...) {
		t.FailNow()
	}
}

// Nil is assert.Nil, then t.FailNow() if it failed.
func Nil(t TestingT, object any, msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.Nil(t, object, msgAndArgs...) {
		t.FailNow()
	}
}

// NotNil is assert.NotNil, then t.FailNow() if it failed.
func NotNil(t TestingT, object any, msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.NotNil(t, object, msgAndArgs...) {
		t.FailNow()
	}
}

// Zero is assert.Zero, then t.FailNow() if it failed.
func Zero(t TestingT, i any, msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.Zero(t, i, msgAndArgs...) {
		t.FailNow()
	}
}

// NotZero is assert.NotZero, then t.FailNow() if it failed.
func NotZero(t TestingT, i any, msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.NotZero(t, i, msgAndArgs...) {
		t.FailNow()
	}
}

// Regexp is assert.Regexp, then t.FailNow() if it failed.
func Regexp(t TestingT, rx any, str any, msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.Regexp(t, rx, str, msgAndArgs...) {
		t.FailNow()
	}
}

// NotRegexp is assert.NotRegexp, then t.FailNow() if it failed.
func NotRegexp(t TestingT, rx any, str any, msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.NotRegexp(t, rx, str, msgAndArgs...) {
		t.FailNow()
	}
}

// Less is assert.Less, then t.FailNow() if it failed.
func Less(t TestingT, e1, e2 any, msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.Less(t, e1, e2, msgAndArgs...) {
		t.FailNow()
	}
}

// LessOrEqual is assert.LessOrEqual, then t.FailNow() if it failed.
func LessOrEqual(t TestingT, e1, e2 any, msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.LessOrEqual(t, e1, e2, msgAndArgs...) {
		t.FailNow()
	}
}

// Greater is assert.Greater, then t.FailNow() if it failed.
func Greater(t TestingT, e1, e2 any, msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.Greater(t, e1, e2, msgAndArgs...) {
		t.FailNow()
	}
}

// GreaterOrEqual is assert.GreaterOrEqual, then t.FailNow() if it failed.
func GreaterOrEqual(t TestingT, e1, e2 any, msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.GreaterOrEqual(t, e1, e2, msgAndArgs...) {
		t.FailNow()
	}
}

// Positive is assert.Positive, then t.FailNow() if it failed.
func Positive(t TestingT, e any, msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.Positive(t, e, msgAndArgs...) {
		t.FailNow()
	}
}

// ElementsMatch is assert.ElementsMatch, then t.FailNow() if it failed.
func ElementsMatch(t TestingT, listA, listB any, msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.ElementsMatch(t, listA, listB, msgAndArgs...) {
		t.FailNow()
	}
}

// JSONEq is assert.JSONEq, then t.FailNow() if it failed.
func JSONEq(t TestingT, expected, actual string, msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.JSONEq(t, expected, actual, msgAndArgs...) {
		t.FailNow()
	}
}

// Error is assert.Error, then t.FailNow() if it failed.
func Error(t TestingT, err error, msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.Error(t, err, msgAndArgs...) {
		t.FailNow()
	}
}

// NoError is assert.NoError, then t.FailNow() if it failed.
func NoError(t TestingT, err error, msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.NoError(t, err, msgAndArgs...) {
		t.FailNow()
	}
}

// ErrorIs is assert.ErrorIs, then t.FailNow() if it failed.
func ErrorIs(t TestingT, err, target error, msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.ErrorIs(t, err, target, msgAndArgs...) {
		t.FailNow()
	}
}

// ErrorAs is assert.ErrorAs, then t.FailNow() if it failed.
func ErrorAs(t TestingT, err error, target any, msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.ErrorAs(t, err, target, msgAndArgs...) {
		t.FailNow()
	}
}

// ErrorContains is assert.ErrorContains, then t.FailNow() if it failed.
func ErrorContains(t TestingT, err error, contains string, msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.ErrorContains(t, err, contains, msgAndArgs...) {
		t.FailNow()
	}
}

// EqualError is assert.EqualError, then t.FailNow() if it failed.
func EqualError(t TestingT, err error, errString string, msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.EqualError(t, err, errString, msgAndArgs...) {
		t.FailNow()
	}
}

// InDelta is assert.InDelta, then t.FailNow() if it failed.
func InDelta(t TestingT, expected, actual any, delta float64, msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.InDelta(t, expected, actual, delta, msgAndArgs...) {
		t.FailNow()
	}
}

// IsType is assert.IsType, then t.FailNow() if it failed.
func IsType(t TestingT, expectedType, object any, msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.IsType(t, expectedType, object, msgAndArgs...) {
		t.FailNow()
	}
}

// FileExists is assert.FileExists, then t.FailNow() if it failed.
func FileExists(t TestingT, path string, msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.FileExists(t, path, msgAndArgs...) {
		t.FailNow()
	}
}

// NotPanics is assert.NotPanics, then t.FailNow() if it failed.
func NotPanics(t TestingT, f func(), msgAndArgs ...any) {
	if h, ok := t.(helperT); ok {
		h.Helper()
	}
	if !assert.NotPanics(t, f, msgAndArgs...) {
		t.FailNow()
	}
}
