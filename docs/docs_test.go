package docs

import (
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

func TestCheckPage(t *testing.T) {
	page, ok := CheckPage("HL2001")
	require.True(t, ok)
	assert.Contains(t, page, "# HL2001")
	assert.NotEmpty(t, RuleText(page))
	_, ok = CheckPage("HL9999")
	assert.False(t, ok)
}

func TestRuleText(t *testing.T) {
	page := "# X\n\n## The rule\n\nFirst line\nsecond line.\n\nMore.\n"
	assert.Equal(t, "First line second line.", RuleText(page))
	assert.Equal(t, "", RuleText("# X\n"))
	page = "# X\n\n## The rule\n\nhiplint reports\nthese:\n\n- one,\n  continued;\n- two.\n\nAfter.\n"
	assert.Equal(t, "hiplint reports these:\n- one, continued;\n- two.", RuleText(page))
	page = "# X\n\n## The rule\n\nSteps:\n1. first\n2. second\n\n## Why\n"
	assert.Equal(t, "Steps:\n- first\n- second", RuleText(page))
}

// No page's rule text stops at the colon that introduces a list (the SARIF
// rules' fullDescription is this text).
func TestEveryRuleTextIsComplete(t *testing.T) {
	ids := CheckIDs()
	require.Len(t, ids, 18)
	for _, id := range ids {
		page, ok := CheckPage(id)
		require.True(t, ok, id)
		text := RuleText(page)
		assert.NotEmpty(t, text, id)
		assert.False(t, strings.HasSuffix(text, ":"), "%s: %q", id, text)
	}
}

func TestAbsoluteLinks(t *testing.T) {
	const base = "https://example.com/docs/checks/"
	assert.Equal(t, "see [HL2002](https://example.com/docs/checks/HL2002.md#why) and [x](https://a.b/c) and [y](#local)",
		AbsoluteLinks("see [HL2002](HL2002.md#why) and [x](https://a.b/c) and [y](#local)", base))
}
