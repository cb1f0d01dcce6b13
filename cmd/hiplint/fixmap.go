package main

import (
	"bytes"
	"fmt"
	"go/token"
	"os"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

// The analyzers see cgo's output, not the user's files: for a file that
// imports "C", go/packages hands them a generated file in the build cache in
// which each C.name became _Cfunc_name, _Ctype_name, and so on, and //line
// directives map every line back to the same line of the user's file. A
// suggested fix's edits are positions in that generated file; here they
// become byte offsets in the user's file. Nothing is ever written to the
// generated file.

// An edit replaces bytes [start, end) of a file with text.
type edit struct {
	start, end int
	text       string
}

// sourceFiles reads files once: the user's files that fixes edit and the
// generated files their positions come from.
type sourceFiles struct {
	content map[string][]byte
}

func newSourceFiles() *sourceFiles {
	return &sourceFiles{content: make(map[string][]byte)}
}

func (s *sourceFiles) read(name string) ([]byte, error) {
	if data, ok := s.content[name]; ok {
		return data, nil
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	s.content[name] = data
	return data, nil
}

// mapFix converts the edits of fix, reported on pkg, to edits of the user's
// files, by file. It fails unless every edit lands exactly in one of the
// package's own source files.
func (s *sourceFiles) mapFix(pkg *packages.Package, fix analysis.SuggestedFix) (map[string][]edit, error) {
	ownFiles := make(map[string]bool, len(pkg.GoFiles))
	for _, f := range pkg.GoFiles {
		ownFiles[f] = true
	}
	out := make(map[string][]edit)
	for _, te := range fix.TextEdits {
		end := te.End
		if !end.IsValid() {
			end = te.Pos
		}
		file, start, err := s.locate(pkg.Fset, te.Pos)
		if err != nil {
			return nil, err
		}
		endFile, stop, err := s.locate(pkg.Fset, end)
		if err != nil {
			return nil, err
		}
		switch {
		case endFile != file:
			return nil, fmt.Errorf("an edit spans %s and %s", file, endFile)
		case stop < start:
			return nil, fmt.Errorf("an edit ends before it starts in %s", file)
		case !ownFiles[file]:
			return nil, fmt.Errorf("%s is not a source file of package %s", file, pkg.PkgPath)
		}
		out[file] = append(out[file], edit{start, stop, string(te.NewText)})
	}
	return out, nil
}

// locate returns the user's file and byte offset of pos.
//
// When pos is in a file without //line directives to another file, that is
// the file and pos's offset in it. Otherwise the adjusted position names the
// user's file and line; the byte within that line is found by comparing the
// line as cgo printed it with the user's line: where the text before pos is
// the same in both (untouched code, the start of the line), or the text after
// it (the end of the line), the offset is exact. Elsewhere cgo rewrote the
// line, the columns of its inline /*line*/ comments are not byte offsets,
// and the edit is refused rather than guessed.
func (s *sourceFiles) locate(fset *token.FileSet, pos token.Pos) (string, int, error) {
	tf := fset.File(pos)
	if tf == nil {
		return "", 0, fmt.Errorf("edit position %d is in no file", pos)
	}
	raw := tf.PositionFor(pos, false)
	adj := tf.PositionFor(pos, true)
	if adj.Filename == raw.Filename {
		return raw.Filename, raw.Offset, nil
	}

	generated, err := s.read(raw.Filename)
	if err != nil {
		return "", 0, err
	}
	user, err := s.read(adj.Filename)
	if err != nil {
		return "", 0, err
	}
	lineStart := raw.Offset - (raw.Column - 1)
	if lineStart < 0 || raw.Offset > len(generated) {
		return "", 0, fmt.Errorf("%s changed while hiplint ran", raw.Filename)
	}
	before := generated[lineStart:raw.Offset]
	after := restOfLine(generated[raw.Offset:])

	userStart, ok := lineOffset(user, adj.Line)
	if !ok {
		return "", 0, fmt.Errorf("%s has no line %d", adj.Filename, adj.Line)
	}
	userLine := restOfLine(user[userStart:])
	switch {
	case bytes.HasPrefix(userLine, before):
		return adj.Filename, userStart + len(before), nil
	case bytes.HasSuffix(userLine, after):
		return adj.Filename, userStart + len(userLine) - len(after), nil
	}
	return "", 0, fmt.Errorf("cannot place an edit at %s: cgo rewrote that part of the line", adj)
}

// restOfLine returns data up to its first newline.
func restOfLine(data []byte) []byte {
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		return data[:i]
	}
	return data
}

// lineOffset returns the offset of the first byte of line (1-based).
func lineOffset(data []byte, line int) (int, bool) {
	offset := 0
	for n := 1; n < line; n++ {
		i := bytes.IndexByte(data[offset:], '\n')
		if i < 0 {
			return 0, false
		}
		offset += i + 1
	}
	return offset, true
}
