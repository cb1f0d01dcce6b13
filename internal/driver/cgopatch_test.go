package driver

import (
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

// TestShiftLines: cgo's directives after an edit move by the lines it
// added or removed, their columns and the code around them untouched.
func TestShiftLines(t *testing.T) {
	in := "\tif err != ( /*line :34:12*/_Ciconst_cudaSuccess /*line :34:24*/) {\n//line /a/b.go:40:1\nx := 1 // line 3: not a directive\n"
	assert.Equal(t, "\tif err != ( /*line :37:12*/_Ciconst_cudaSuccess /*line :37:24*/) {\n//line /a/b.go:43:1\nx := 1 // line 3: not a directive\n",
		string(shiftLines([]byte(in), 3)))
	assert.Equal(t, "( /*line :32:12*/x", string(shiftLines([]byte("( /*line :34:12*/x"), -2)))
	assert.Equal(t, in, string(shiftLines([]byte(in), 0)))
}

// TestLines: lines keep their newlines, and a last line without one.
func TestLines(t *testing.T) {
	got := lines([]byte("a\nb\n\nc"))
	assert.Equal(t, []string{"a\n", "b\n", "\n", "c"}, []string{string(got[0]), string(got[1]), string(got[2]), string(got[3])})
	assert.Empty(t, lines(nil))
}
