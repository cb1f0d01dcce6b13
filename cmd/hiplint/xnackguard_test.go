package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestXnackguardGuardsAreRecognized lints packages that use managed memory
// behind the guards of the importable package xnackguard (the ones the
// HL4002 and HL4004 pages show): Enabled, PageableMemoryAccess and
// SkipUnlessXNACK each guard what follows them, across the package
// boundary, and the unguarded twins are reported.
func TestXnackguardGuardsAreRecognized(t *testing.T) {
	t.Parallel()
	const dir = "cmd/hiplint/testdata/xnackguard/"
	res := hiplint(t, repoRoot, "./"+dir+"user", "./"+dir+"prog")
	assert.Equal(t, exitFindings, res.code)
	want := append(markedHazards(t, dir+"user/user_test.go"), markedHazards(t, dir+"prog/main.go")...)
	assert.Len(t, want, 2)
	assert.Equal(t, sortedMarks(want), marksOf(parseText(t, res.stdout)))
}
