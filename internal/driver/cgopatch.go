package driver

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Edits of a cgo file without cgo (Session.Rerun). cgo's output for a Go
// file (the package's compiled file in its place) is the file's text with
// each reference to C rewritten in place and /*line :L:C*/ directives that
// give the rewritten text the user's positions; code that names nothing of
// C is copied as it is. So an edit confined to functions that name nothing
// of C, before and after, is an edit of cgo's output too: the same lines,
// replaced by the new text, with the line directives after them moved by
// the lines the edit added or removed. cgo would write exactly that, and
// its declarations of the C names (_cgo_gotypes.go), which follow from the
// preamble and the names used, stay as they are: the preamble, the imports
// and every use of C are in the lines the edit left alone.
//
// Anything else (an edit of the preamble, the imports, a use of C, a
// type, variable or constant declaration, whose kind cgo consults when
// it rewrites calls, or an //export) is refused: the directory is loaded
// again, and cgo runs.

// cgoPatch returns the new text and syntax of the compiled file of p that
// is cgo's output for the user's file name, whose text goes from old to
// new; why is not "" when the edit cannot be made without cgo.
func (s *Session) cgoPatch(p *packages.Package, name string, old, new []byte) (idx int, text []byte, file *ast.File, why string) {
	idx = -1
	for i, f := range p.Syntax {
		if i < len(p.CompiledGoFiles) && s.fset.Position(f.Package).Filename == name && p.CompiledGoFiles[i] != name {
			idx = i
		}
	}
	if idx < 0 {
		return -1, nil, nil, "no cgo output for " + name
	}
	compiled := p.CompiledGoFiles[idx]
	out, ok := s.compiled[compiled]
	if !ok {
		var err error
		if out, err = os.ReadFile(compiled); err != nil {
			return -1, nil, nil, "reading cgo's output: " + err.Error()
		}
	}
	fset := token.NewFileSet()
	of, err1 := parser.ParseFile(fset, name, old, parser.ParseComments|parser.SkipObjectResolution)
	nf, err2 := parser.ParseFile(fset, name, new, parser.ParseComments|parser.SkipObjectResolution)
	if err1 != nil || err2 != nil {
		return -1, nil, nil, name + " does not parse"
	}
	if why := sameHeader(fset, of, nf, true); why != "" {
		return -1, nil, nil, why
	}
	ol, nl := lines(old), lines(new)
	// The lines that differ: [pre, len-suf) of each.
	pre := 0
	for pre < len(ol) && pre < len(nl) && bytes.Equal(ol[pre], nl[pre]) {
		pre++
	}
	suf := 0
	for suf < len(ol)-pre && suf < len(nl)-pre && bytes.Equal(ol[len(ol)-1-suf], nl[len(nl)-1-suf]) {
		suf++
	}
	oSpans, nSpans := declSpans(fset, of), declSpans(fset, nf)
	// Widen the lines to whole declarations, old and new. An edit
	// between declarations (comments, blank lines) touches none.
	from, to := pre, len(ol)-suf
	for changed := true; changed; {
		changed = false
		for _, sp := range oSpans {
			if sp.start < to && sp.end >= from && (sp.start < from || sp.end >= to) {
				from, to = min(from, sp.start), max(to, sp.end+1)
				changed = true
			}
		}
		nTo := to + len(nl) - len(ol)
		for _, sp := range nSpans {
			if sp.start < nTo && sp.end >= from && (sp.start < from || sp.end >= nTo) {
				// A new declaration reaches past the old ones: take
				// the old lines it covers too.
				from = min(from, sp.start)
				to = max(to, sp.end+1-(len(nl)-len(ol)))
				changed = true
			}
		}
	}
	nTo := to + len(nl) - len(ol)
	if to > len(ol) || nTo > len(nl) || from < 0 {
		return -1, nil, nil, "the edit's lines do not line up"
	}
	for _, c := range []struct {
		f     *ast.File
		spans []declSpan
		lo    [][]byte
		to    int
	}{{of, oSpans, ol, to}, {nf, nSpans, nl, nTo}} {
		for _, sp := range c.spans {
			if sp.start >= from && sp.end < c.to {
				if why := plainFunc(sp.decl); why != "" {
					return -1, nil, nil, why
				}
			}
		}
		for _, l := range c.lo[from:c.to] {
			if bytes.Contains(l, []byte("line ")) && (bytes.Contains(l, []byte("//line")) || bytes.Contains(l, []byte("/*line"))) {
				return -1, nil, nil, "a line directive in the edit"
			}
		}
	}
	// Where the old lines are in cgo's output: found through the
	// directives from the first declaration in them (its start), or else
	// from the declaration before them (its end); cgo's lines there must
	// be the old lines themselves.
	cf := p.Syntax[idx]
	rawLine := func(sp declSpan, end bool) int {
		for _, d := range cf.Decls {
			start := declStart(d)
			if posn := s.fset.Position(start); posn.Filename == name && posn.Line-1 == sp.start {
				if end {
					return s.fset.PositionFor(d.End(), false).Line - 1
				}
				return s.fset.PositionFor(start, false).Line - 1
			}
		}
		return -1
	}
	rawStart := -1
	for i, sp := range oSpans {
		if sp.start >= from && sp.start < to {
			if r := rawLine(sp, false); r >= 0 {
				rawStart = r - (sp.start - from)
			}
			break
		}
		if sp.end < from && (i+1 == len(oSpans) || oSpans[i+1].start >= from) {
			if r := rawLine(sp, true); r >= 0 {
				rawStart = r + (from - sp.end)
			}
			break
		}
	}
	cl := lines(out)
	if rawStart < 0 || rawStart+to-from > len(cl) {
		return -1, nil, nil, "the edited lines are not found in cgo's output"
	}
	for i := from; i < to; i++ {
		if !bytes.Equal(trimNL(cl[rawStart+i-from]), trimNL(ol[i])) {
			return -1, nil, nil, "cgo's output differs from the edited lines"
		}
	}
	var b bytes.Buffer
	for _, l := range cl[:rawStart] {
		b.Write(l)
	}
	for _, l := range nl[from:nTo] {
		b.Write(l)
	}
	if nTo > 0 && !bytes.HasSuffix(nl[nTo-1], []byte("\n")) && rawStart+to-from < len(cl) {
		b.WriteByte('\n')
	}
	b.Write(shiftLines(bytes.Join(cl[rawStart+to-from:], nil), len(nl)-len(ol)))
	text = b.Bytes()
	file, err := parser.ParseFile(s.fset, compiled, text, parser.AllErrors|parser.ParseComments)
	if err != nil || file == nil {
		return -1, nil, nil, "the new cgo output does not parse"
	}
	return idx, text, file, ""
}

// A declSpan is a top-level declaration's lines, 0-based, its doc comment
// included, end inclusive.
type declSpan struct {
	start, end int
	decl       ast.Decl
}

func declSpans(fset *token.FileSet, f *ast.File) []declSpan {
	var out []declSpan
	for _, d := range f.Decls {
		start := declStart(d)
		out = append(out, declSpan{fset.Position(start).Line - 1, fset.Position(d.End()).Line - 1, d})
	}
	return out
}

func overlaps(spans []declSpan, from, to int) bool {
	for _, sp := range spans {
		if sp.start < to && sp.end >= from {
			return true
		}
	}
	return false
}

// plainFunc says why cgo could write decl other than as it is: not a
// function, an //export, or a use of C.
func plainFunc(decl ast.Decl) string {
	fd, ok := decl.(*ast.FuncDecl)
	if !ok {
		return "a declaration other than a function edited"
	}
	if fd.Doc != nil {
		for _, c := range fd.Doc.List {
			if strings.HasPrefix(c.Text, "//export ") || strings.HasPrefix(c.Text, "//go:") {
				return "an //export or //go: directive in the edit"
			}
		}
	}
	usesC := false
	ast.Inspect(fd, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == "C" {
			usesC = true
		}
		return !usesC
	})
	if usesC {
		return "the edit uses C"
	}
	return ""
}

// lines splits text after each newline.
func lines(text []byte) [][]byte {
	var out [][]byte
	for len(text) > 0 {
		i := bytes.IndexByte(text, '\n')
		if i < 0 {
			out = append(out, text)
			break
		}
		out = append(out, text[:i+1])
		text = text[i+1:]
	}
	return out
}

func trimNL(l []byte) []byte { return bytes.TrimSuffix(l, []byte("\n")) }

// lineDirective matches cgo's line directives: /*line :L:C*/ and
// //line FILE:L:C.
var lineDirective = regexp.MustCompile(`(/\*line |//line )([^\n]*?):(\d+):(\d+)`)

// shiftLines adds delta to the line of every line directive in text.
func shiftLines(text []byte, delta int) []byte {
	if delta == 0 {
		return text
	}
	return lineDirective.ReplaceAllFunc(text, func(m []byte) []byte {
		sm := lineDirective.FindSubmatch(m)
		n, err := strconv.Atoi(string(sm[3]))
		if err != nil {
			return m
		}
		return []byte(string(sm[1]) + string(sm[2]) + ":" + strconv.Itoa(n+delta) + ":" + string(sm[4]))
	})
}

// declStart is where d begins in the file: its doc comment, else d.
func declStart(d ast.Decl) token.Pos {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Doc != nil {
			return d.Doc.Pos()
		}
	case *ast.GenDecl:
		if d.Doc != nil {
			return d.Doc.Pos()
		}
	}
	return d.Pos()
}
