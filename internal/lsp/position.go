package lsp

import (
	"bytes"
	"fmt"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/hiplint/hiplint/internal/fixes"
)

// uriToPath returns the file a file:// URI names, cleaned.
func uriToPath(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", err
	}
	if u.Scheme != "file" {
		return "", fmt.Errorf("%s: hiplint reads only file: URIs", uri)
	}
	p := u.Path
	if runtime.GOOS == "windows" && len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:] // file:///C:/x
	}
	return filepath.Clean(filepath.FromSlash(p)), nil
}

// pathToURI returns the file:// URI of an absolute path.
func pathToURI(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// linePosition converts a 1-based line and byte column of content into a
// protocol position. A column past the end of the line is clamped to it.
func linePosition(content []byte, line, column int) position {
	if line < 1 {
		return position{}
	}
	start, ok := fixes.LineOffset(content, line)
	if !ok {
		return position{Line: line - 1, Character: max(0, column-1)}
	}
	text := content[start:]
	if i := bytes.IndexByte(text, '\n'); i >= 0 {
		text = text[:i]
	}
	return position{Line: line - 1, Character: fixes.UTF16Len(text[:min(max(column-1, 0), len(text))])}
}

// offsetPosition converts a byte offset of content into a protocol position.
func offsetPosition(content []byte, offset int) position {
	offset = min(max(offset, 0), len(content))
	before := content[:offset]
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	return position{Line: bytes.Count(before, []byte{'\n'}), Character: fixes.UTF16Len(before[lineStart:])}
}

// positionOffset converts a protocol position into a byte offset of
// content. A line past the end gives the end of content, a character past
// the end of its line the end of the line (the protocol's rule), and a
// position inside a surrogate pair the start of its character.
func positionOffset(content []byte, p position) int {
	offset := 0
	for range max(p.Line, 0) {
		i := bytes.IndexByte(content[offset:], '\n')
		if i < 0 {
			return len(content)
		}
		offset += i + 1
	}
	for units := 0; offset < len(content) && content[offset] != '\n'; {
		r, size := utf8.DecodeRune(content[offset:])
		units += max(1, utf16.RuneLen(r))
		if units > p.Character {
			break
		}
		offset += size
	}
	return offset
}

// applyChanges returns text with the changes of one didChange applied in
// order.
func applyChanges(text []byte, changes []textDocumentContentChangeEvent) []byte {
	for _, c := range changes {
		if c.Range == nil {
			text = []byte(c.Text)
			continue
		}
		start := positionOffset(text, c.Range.Start)
		end := max(start, positionOffset(text, c.Range.End))
		out := make([]byte, 0, len(text)-(end-start)+len(c.Text))
		out = append(out, text[:start]...)
		out = append(out, c.Text...)
		text = append(out, text[end:]...)
	}
	return text
}

func (p position) before(q position) bool {
	return p.Line < q.Line || p.Line == q.Line && p.Character < q.Character
}

// intersects reports whether two ranges share a position, their ends
// included: a cursor at either end of a diagnostic is on it.
func (r lspRange) intersects(s lspRange) bool {
	return !r.End.before(s.Start) && !s.End.before(r.Start)
}
