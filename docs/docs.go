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
// check's page, on one line, or "" when the page has none. A paragraph
// that ends in a colon introduces a list: the list follows it, one item a
// line ("- item"), so that the text is complete.
func RuleText(page string) string {
	_, after, ok := strings.Cut(page, "\n## The rule\n")
	if !ok {
		return ""
	}
	lines := strings.Split(strings.TrimLeft(after, "\n"), "\n")
	var para []string
	i := 0
	for ; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		if _, item := listItem(line); line == "" || strings.HasPrefix(line, "#") || item && len(para) > 0 {
			break
		}
		para = append(para, line)
	}
	text := strings.Join(para, " ")
	if !strings.HasSuffix(text, ":") {
		return text
	}
	// The list: items start with "- ", "* " or "1. "; their continuation
	// lines are indented. It may follow a blank line.
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	var items []string
	for ; i < len(lines); i++ {
		raw := lines[i]
		line := strings.TrimSpace(raw)
		if line == "" {
			break
		}
		if item, ok := listItem(line); ok && !strings.HasPrefix(raw, " ") {
			items = append(items, item)
		} else if len(items) > 0 {
			items[len(items)-1] += " " + line
		} else {
			break
		}
	}
	for _, item := range items {
		text += "\n- " + item
	}
	return text
}

var orderedItem = regexp.MustCompile(`^\d+\. `)

// listItem returns the text of a Markdown list item's first line.
func listItem(line string) (string, bool) {
	for _, p := range []string{"- ", "* "} {
		if rest, ok := strings.CutPrefix(line, p); ok {
			return rest, true
		}
	}
	if m := orderedItem.FindString(line); m != "" {
		return line[len(m):], true
	}
	return "", false
}

// CheckIDs returns the IDs of the embedded check pages, sorted.
func CheckIDs() []string {
	entries, _ := pages.ReadDir("checks")
	var ids []string
	for _, e := range entries {
		ids = append(ids, strings.TrimSuffix(e.Name(), ".md"))
	}
	return ids
}

var relativeLink = regexp.MustCompile(`\]\(([^)#:]+)(#[^)]*)?\)`)

// AbsoluteLinks rewrites the relative links of a page that lives at base
// (ending in a slash) to absolute ones, so that the page can be shown
// elsewhere.
func AbsoluteLinks(page, base string) string {
	return relativeLink.ReplaceAllString(page, "]("+base+"$1$2)")
}
