package suppress

import (
	"fmt"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/diag/check"
	"github.com/hiplint/hiplint/internal/directive"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

func parseDirective(t *testing.T, comment string) *use {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "a.go", "package p\n\n"+comment+"\nvar x int\n", parser.ParseComments)
	require.NoError(t, err)
	dirs := directive.Parse(fset, f)
	require.Len(t, dirs, 1)
	return &use{d: dirs[0], used: map[string]bool{}, checked: map[string]bool{}}
}

// Issue 16 item 8: one directive naming 10,000 unknown IDs printed 800 MB,
// an HL0003 per ID, each quoting the whole directive.
func TestUnknownIDsOfOneDirectiveAreBounded(t *testing.T) {
	t.Parallel()
	tr := NewTracker([]check.Check{{ID: "HL2001", Analyzer: "modulebalance"}})
	ids := make([]string, 10000)
	for i := range ids {
		ids[i] = fmt.Sprintf("NOPE%d", i)
	}
	u := parseDirective(t, "//hiplint:ignore "+strings.Join(ids, ",")+" a reason")
	problems := tr.problems(u)
	require.Len(t, problems, maxUnknown+1)
	total := 0
	for i, pr := range problems {
		assert.Equal(t, "HL0003", pr.check.ID)
		total += len(pr.message)
		if i < maxUnknown {
			assert.Contains(t, pr.message, fmt.Sprintf("unknown check ID NOPE%d;", i))
		}
	}
	assert.Contains(t, problems[maxUnknown].message, fmt.Sprintf("and %d more unknown check IDs", 10000-maxUnknown))
	assert.Less(t, total, 2000, "a few lines, not megabytes")

	// An ID repeated is one ID.
	u = parseDirective(t, "//hiplint:ignore "+strings.Repeat("NOPE,", 5000)+"HL2001 a reason")
	u.checked["HL2001"] = true
	problems = tr.problems(u)
	require.Len(t, problems, 2)
	assert.Contains(t, problems[0].message, "unknown check ID NOPE;")
	assert.Equal(t, "HL0001", problems[1].check.ID)
	assert.Less(t, len(problems[0].message)+len(problems[1].message), 500)
}

// Issue 16 item 14: an unknown ID with control characters is quoted escaped.
func TestUnknownIDIsEscaped(t *testing.T) {
	t.Parallel()
	tr := NewTracker(nil)
	u := parseDirective(t, "//hiplint:ignore \x1b[2JHL9999 a reason")
	problems := tr.problems(u)
	require.Len(t, problems, 1)
	assert.NotContains(t, problems[0].message, "\x1b")
	assert.Equal(t, `//hiplint:ignore \x1b[2JHL9999: unknown check ID \x1b[2JHL9999; `+"`hiplint checks` lists them", problems[0].message)
}
