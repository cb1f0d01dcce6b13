package synth

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// A preambleLine is one line of a cgo preamble as it lies in its Go file:
// the C text of the line sits at src[start:end].
type preambleLine struct {
	line       int // 1-based line in the Go file
	start, end int // byte offsets of the C text in the file
	text       string
}

// preamble is the cgo preamble of the import "C" of a Go file, line by line,
// as cgo reads it: the comment immediately above the import (the import
// spec's own, else its declaration's when the declaration has only that
// spec). A file may hold several import "C" declarations; their preambles
// follow one another.
func preamble(src []byte) ([]preambleLine, bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ImportsOnly|parser.ParseComments)
	if err != nil {
		return nil, false
	}
	docs := cImportDocs(f)
	var lines []preambleLine
	for _, doc := range docs {
		if doc == nil {
			continue
		}
		{
			for _, c := range doc.List {
				off := fset.Position(c.Pos()).Offset
				line := fset.Position(c.Pos()).Line
				if strings.HasPrefix(c.Text, "//") {
					lines = append(lines, preambleLine{line, off + 2, off + len(c.Text), c.Text[2:]})
					continue
				}
				// A block comment: its text between /* and */, line by line.
				body := c.Text[2 : len(c.Text)-2]
				pos := off + 2
				for i, l := range strings.Split(body, "\n") {
					lines = append(lines, preambleLine{line + i, pos, pos + len(l), l})
					pos += len(l) + 1
				}
			}
		}
	}
	return lines, len(docs) > 0
}

// cImportDocs returns the comment cgo reads as the preamble of each import
// "C" of f, in order: the import spec's own, else its declaration's when the
// declaration has only that spec; nil for an import without one.
func cImportDocs(f *ast.File) []*ast.CommentGroup {
	var docs []*ast.CommentGroup
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		for _, s := range gd.Specs {
			is := s.(*ast.ImportSpec)
			if is.Path.Value != `"C"` {
				continue
			}
			doc := is.Doc
			if doc == nil && len(gd.Specs) == 1 {
				doc = gd.Doc
			}
			docs = append(docs, doc)
		}
	}
	return docs
}

// Preambles returns the text of the cgo preamble of each import "C" of the
// Go file src ("" for an import without one), as cgo reads them; none when
// src does not parse or imports no "C".
func Preambles(src []byte) []string {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.ImportsOnly|parser.ParseComments)
	if err != nil {
		return nil
	}
	var out []string
	for _, doc := range cImportDocs(f) {
		out = append(out, doc.Text()) // "" for nil
	}
	return out
}

// directive returns the name of the preprocessor directive on a preamble
// line ("include", "if", ...) and the rest of the line, or "".
func directive(text string) (name, rest string) {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "#") {
		return "", ""
	}
	t = strings.TrimLeft(t[1:], " \t")
	i := 0
	for i < len(t) && (t[i] >= 'a' && t[i] <= 'z' || t[i] == '_') {
		i++
	}
	return t[:i], strings.TrimSpace(t[i:])
}

// includeName returns the header an #include line names and whether it is
// written with angle brackets.
func includeName(text string) (name string, angle, ok bool) {
	d, rest := directive(text)
	if d != "include" || len(rest) < 2 {
		return "", false, false
	}
	switch rest[0] {
	case '<':
		if i := strings.IndexByte(rest, '>'); i > 1 {
			return rest[1:i], true, true
		}
	case '"':
		if i := strings.IndexByte(rest[1:], '"'); i > 0 {
			return rest[1 : i+1], false, true
		}
	}
	return "", false, false
}

// includeLines returns the preamble's #include lines with their nesting
// depth in #if blocks.
func includeLines(lines []preambleLine) (incs []preambleLine, depth []int) {
	d := 0
	for _, l := range lines {
		switch name, _ := directive(l.text); name {
		case "if", "ifdef", "ifndef":
			d++
		case "endif":
			if d > 0 {
				d--
			}
		case "include":
			incs = append(incs, l)
			depth = append(depth, d)
		}
	}
	return incs, depth
}

// rewrite returns src with the C text of the given lines replaced. A new
// text holds no newline and no "*/", so every line of the Go file stays
// where it was: positions in the Go code do not move.
func rewrite(src []byte, lines []preambleLine, texts map[int]string) []byte {
	var out []byte
	last := 0
	for _, l := range lines {
		t, ok := texts[l.line]
		if !ok {
			continue
		}
		out = append(out, src[last:l.start]...)
		out = append(out, t...)
		last = l.end
	}
	return append(out, src[last:]...)
}
