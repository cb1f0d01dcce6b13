// Package docs embeds the per-check documentation pages (docs/checks/HL*.md)
// so that hiplint can ship them in its output: the SARIF log carries each
// rule's description and help from them.
package docs

import (
	"embed"
	"regexp"
	"strings"
)

//go:embed checks/HL*.md
var pages embed.FS

// CheckPage returns the documentation page of check id, in Markdown.
func CheckPage(id string) (string, bool) {
	data, err := pages.ReadFile("checks/" + id + ".md")
	if err != nil {
		return "", false
	}
	return string(data), true
}

// RuleText returns the first paragraph of the "## The rule" section of a
// check's page, on one line, or "" when the page has none.
func RuleText(page string) string {
	_, after, ok := strings.Cut(page, "\n## The rule\n")
	if !ok {
		return ""
	}
	var lines []string
	for _, line := range strings.Split(strings.TrimLeft(after, "\n"), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			break
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, " ")
}

var relativeLink = regexp.MustCompile(`\]\(([^)#:]+)(#[^)]*)?\)`)

// AbsoluteLinks rewrites the relative links of a page that lives at base
// (ending in a slash) to absolute ones, so that the page can be shown
// elsewhere.
func AbsoluteLinks(page, base string) string {
	return relativeLink.ReplaceAllString(page, "]("+base+"$1$2)")
}
