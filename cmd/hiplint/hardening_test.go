package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

// Issue 16 items 8 and 14, through the command: a directive naming 10,000
// unknown check IDs printed 800 MB, and control characters in a directive
// reached the terminal raw.
func TestHostileDirectivesPrintLittleAndEscaped(t *testing.T) {
	t.Parallel()
	ids := make([]string, 10000)
	for i := range ids {
		ids[i] = fmt.Sprintf("NOPE%d", i)
	}
	dir := sharedFixture(t, loadLine,
		"\t//hiplint:ignore "+strings.Join(ids, ",")+" a reason\n"+
			"\t//hiplint:ignore \x1b]0;pwned\x07\x1b[2J a reason\n"+loadLine)
	res := hiplint(t, dir, "./...")
	assert.Equal(t, exitFindings, res.code)
	assert.Less(t, len(res.stdout), 4000, "a few lines, not megabytes")
	assert.Equal(t, 5, strings.Count(res.stdout, "(HL0003)"), "three unknown IDs, one count of the rest, and the escaped one")
	assert.Contains(t, res.stdout, "and 9997 more unknown check IDs")
	assert.Contains(t, res.stdout, `unknown check ID \x1b]0;pwned\a\x1b[2J;`)
	assert.NotContains(t, res.stdout+res.stderr, "\x1b")
	assert.NotContains(t, res.stdout+res.stderr, "\a")
}
