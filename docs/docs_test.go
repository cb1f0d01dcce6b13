package docs

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
}

func TestAbsoluteLinks(t *testing.T) {
	const base = "https://example.com/docs/checks/"
	assert.Equal(t, "see [HL2002](https://example.com/docs/checks/HL2002.md#why) and [x](https://a.b/c) and [y](#local)",
		AbsoluteLinks("see [HL2002](HL2002.md#why) and [x](https://a.b/c) and [y](#local)", base))
}
