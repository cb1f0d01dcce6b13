// Package fixes turns the analyzers' suggested fixes into edits of the user's
// files, and applies them. The standalone driver (-fix, -diff, -json) and the
// language server (quick fixes) share it, so that an editor proposes exactly
// the change that -fix makes.
//
// The analyzers see cgo's output, not the user's files: for a file that
// imports "C", go/packages hands them a generated file in the build cache in
// which each C.name became _Cfunc_name, _Ctype_name, and so on, and //line
// directives map every line back to the same line of the user's file. A
// suggested fix's edits are positions in that generated file; here they
// become byte offsets in the user's file. Nothing is ever written to the
// generated file.
package fixes

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/scanner"
	"go/token"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

// An Edit replaces bytes [Start, End) of a file with Text.
type Edit struct {
	Start, End int
	Text       string
}

// Sources reads files once: the user's files that fixes edit and the
// generated files their positions come from. Everything computed from one
// Sources agrees on the files' contents even if they change on disk
// meanwhile. It is not safe for concurrent use.
type Sources struct {
	content map[string][]byte
	failed  map[string]error // files that could not be read, and why
	// expect, when not nil, holds the SHA-256 of each file as the
	// analysis read it (Expect).
	expect map[string][sha256.Size]byte
}

// ErrChanged is the error of reading a file whose content is no longer the
// content that was analyzed (a *ChangedError).
var ErrChanged = errors.New("changed since hiplint analyzed it")

// A ChangedError says that file Name no longer holds the bytes that were
// analyzed.
type ChangedError struct{ Name string }

func (e *ChangedError) Error() string { return e.Name + " " + ErrChanged.Error() }

// Is makes errors.Is(err, ErrChanged) true.
func (e *ChangedError) Is(target error) bool { return target == ErrChanged }

// Expect makes every later Read of a file fail unless the file has the
// SHA-256 that hashes give for it, the hash of what the analysis read:
// with ErrChanged when its content differs, with another error when hashes
// has no entry for it. Edits computed from such a Sources are edits of the
// bytes that were analyzed.
func (s *Sources) Expect(hashes map[string][sha256.Size]byte) {
	s.expect = hashes
}

// NewSources returns an empty Sources.
func NewSources() *Sources {
	return &Sources{content: make(map[string][]byte), failed: make(map[string]error)}
}

// MaxFileSize is the largest file Sources reads. Go source files are far
// smaller; a larger file named by a //line directive is not read at all.
const MaxFileSize = 8 << 20

// Read returns the content of file name, read on the first call. Only
// regular files of at most MaxFileSize bytes are read: a //line directive
// can name any file, /dev/zero or a FIFO among them, which would never end.
func (s *Sources) Read(name string) ([]byte, error) {
	if data, ok := s.content[name]; ok {
		return data, nil
	}
	if err, ok := s.failed[name]; ok {
		return nil, err
	}
	data, err := ReadBounded(name, MaxFileSize)
	if err == nil && s.expect != nil {
		if want, ok := s.expect[name]; !ok {
			err = fmt.Errorf("hiplint did not analyze %s", name)
		} else if sha256.Sum256(data) != want {
			err = &ChangedError{name}
		}
	}
	if err != nil {
		s.failed[name] = err
		return nil, err
	}
	s.content[name] = data
	return data, nil
}

// Use makes data the content of file name for every later Read: an
// editor's unsaved buffer, which the analysis read through an overlay in
// place of the file on disk.
func (s *Sources) Use(name string, data []byte) {
	s.content[name] = data
	delete(s.failed, name)
}

// ReadBounded reads file name when it is a regular file of at most limit
// bytes, and fails without reading it otherwise. It never blocks on a FIFO
// or a device: the file is checked before it is opened, opened without
// waiting for a writer, and checked again once open.
func ReadBounded(name string, limit int64) ([]byte, error) {
	check := func(info os.FileInfo) error {
		switch {
		case !info.Mode().IsRegular():
			return fmt.Errorf("%s is not a regular file (%s); hiplint reads only regular source files", name, info.Mode().Type())
		case info.Size() > limit:
			return fmt.Errorf("%s is larger than %d bytes; hiplint does not read it", name, limit)
		}
		return nil
	}
	info, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if err := check(info); err != nil {
		return nil, err
	}
	f, err := openNoWait(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := check(info); err != nil { // replaced since the first look
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit { // grew since the look
		return nil, fmt.Errorf("%s is larger than %d bytes; hiplint does not read it", name, limit)
	}
	return data, nil
}

// Map converts the edits of fix, reported on pkg, to edits of the user's
// files, by file. It fails unless every edit lands exactly in one of the
// package's own source files, at the place it was made (Place): a //line
// directive never moves an edit.
func (s *Sources) Map(pkg *packages.Package, fix analysis.SuggestedFix) (map[string][]Edit, error) {
	own := make(map[string]bool, len(pkg.GoFiles))
	for _, f := range pkg.GoFiles {
		own[f] = true
	}
	out := make(map[string][]Edit)
	for _, te := range fix.TextEdits {
		end := te.End
		if !end.IsValid() {
			end = te.Pos
		}
		file, start, err := s.place(pkg, own, te.Pos)
		if err != nil {
			return nil, err
		}
		endFile, stop, err := s.place(pkg, own, end)
		if err != nil {
			return nil, err
		}
		switch {
		case endFile != file:
			return nil, fmt.Errorf("an edit spans %s and %s", file, endFile)
		case stop < start:
			return nil, fmt.Errorf("an edit ends before it starts in %s", file)
		}
		out[file] = append(out[file], Edit{start, stop, string(te.NewText)})
	}
	return out, nil
}

// Place returns the file of pkg and the byte offset in it where pos
// physically is, the place an edit at pos must change:
//
//   - in a file the package compiles as it is written, pos's offset in it,
//     whatever //line directives say (they may name any file and line);
//   - in cgo's output for a file that imports "C", the place in that file
//     that cgo's //line directives give (Locate). cgo's output keeps the
//     user's own //line directives, which it cannot be told from, so an
//     edit through the output of a file that has any is refused.
//
// Any other file (a dependency's, one that a //line directive names) is
// refused.
func (s *Sources) Place(pkg *packages.Package, pos token.Pos) (string, int, error) {
	own := make(map[string]bool, len(pkg.GoFiles))
	for _, f := range pkg.GoFiles {
		own[f] = true
	}
	return s.place(pkg, own, pos)
}

func (s *Sources) place(pkg *packages.Package, own map[string]bool, pos token.Pos) (string, int, error) {
	tf := pkg.Fset.File(pos)
	if tf == nil {
		return "", 0, fmt.Errorf("edit position %d is in no file", pos)
	}
	raw := tf.PositionFor(pos, false)
	switch {
	case own[raw.Filename]:
		if _, err := s.Read(raw.Filename); err != nil {
			return "", 0, err
		}
		return raw.Filename, raw.Offset, nil
	case !slices.Contains(pkg.CompiledGoFiles, raw.Filename):
		return "", 0, fmt.Errorf("%q is not a source file of package %s", raw.Filename, pkg.PkgPath)
	}
	generated, err := s.Read(raw.Filename)
	if err != nil {
		return "", 0, err
	}
	user, ok := cgoSource(generated)
	if !ok || !own[user] {
		return "", 0, fmt.Errorf("%s is not cgo's output for a source file of package %s", raw.Filename, pkg.PkgPath)
	}
	if adj := tf.PositionFor(pos, true); adj.Filename != user {
		return "", 0, fmt.Errorf("a //line directive names %q for an edit made in %s; hiplint does not follow it", adj.Filename, user)
	}
	data, err := s.Read(user)
	if err != nil {
		return "", 0, err
	}
	if HasLineDirectives(data) {
		return "", 0, fmt.Errorf("%s has //line directives of its own, which cgo's output keeps; hiplint places no edit in it", user)
	}
	return s.Locate(pkg.Fset, pos)
}

// cgoSource returns the file that data, cgo's output, was translated from:
// the file its first //line directive names, which cgo writes before any of
// the user's text.
func cgoSource(data []byte) (string, bool) {
	const header = "// Code generated by cmd/cgo; DO NOT EDIT.\n"
	if !bytes.HasPrefix(data, []byte(header)) {
		return "", false
	}
	for line := range bytes.Lines(data[len(header):]) {
		text, ok := bytes.CutPrefix(bytes.TrimRight(line, "\r\n"), []byte("//line "))
		if !ok {
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			return "", false
		}
		// name:line:col; the name may hold colons itself.
		name := string(text)
		for range 2 {
			i := strings.LastIndexByte(name, ':')
			if i < 0 {
				return "", false
			}
			if _, err := strconv.Atoi(name[i+1:]); err != nil {
				return "", false
			}
			name = name[:i]
		}
		return name, name != ""
	}
	return "", false
}

// HasLineDirectives reports whether Go source data has a comment that is
// or may be a //line directive ("//line " or "/*line ").
func HasLineDirectives(data []byte) bool {
	var sc scanner.Scanner
	fset := token.NewFileSet()
	sc.Init(fset.AddFile("", -1, len(data)), data, nil, scanner.ScanComments)
	for {
		_, tok, lit := sc.Scan()
		switch {
		case tok == token.EOF:
			return false
		case tok == token.COMMENT && (strings.HasPrefix(lit, "//line ") || strings.HasPrefix(lit, "/*line ")):
			return true
		}
	}
}

// Locate returns the user's file and byte offset of pos.
//
// When pos is in a file without //line directives to another file, that is
// the file and pos's offset in it. Otherwise the adjusted position names the
// user's file and line; the byte within that line is found by comparing the
// line as cgo printed it with the user's line: where the text before pos is
// the same in both (untouched code, the start of the line), or the text after
// it (the end of the line), the offset is exact. Elsewhere cgo rewrote the
// line, the columns of its inline /*line*/ comments are not byte offsets,
// and the edit is refused rather than guessed.
//
// Locate follows every //line directive, the user's too: it places what
// hiplint reports, where the adjusted position points. Edits are placed
// with Place.
func (s *Sources) Locate(fset *token.FileSet, pos token.Pos) (string, int, error) {
	tf := fset.File(pos)
	if tf == nil {
		return "", 0, fmt.Errorf("edit position %d is in no file", pos)
	}
	raw := tf.PositionFor(pos, false)
	adj := tf.PositionFor(pos, true)
	if adj.Filename == raw.Filename {
		return raw.Filename, raw.Offset, nil
	}

	generated, err := s.Read(raw.Filename)
	if err != nil {
		return "", 0, err
	}
	user, err := s.Read(adj.Filename)
	if err != nil {
		return "", 0, err
	}
	lineStart := raw.Offset - (raw.Column - 1)
	if lineStart < 0 || raw.Offset > len(generated) {
		return "", 0, fmt.Errorf("%s changed while hiplint ran", raw.Filename)
	}
	before := generated[lineStart:raw.Offset]
	after := restOfLine(generated[raw.Offset:])

	userStart, ok := LineOffset(user, adj.Line)
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

// RefuseGenerated fails when an edit touches a file marked as generated:
// the next generation would undo it.
func (s *Sources) RefuseGenerated(edits map[string][]Edit) error {
	for file := range edits {
		data, err := s.Read(file)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, data, parser.PackageClauseOnly|parser.ParseComments)
		if err == nil && ast.IsGenerated(f) {
			return fmt.Errorf("%s is generated", file)
		}
	}
	return nil
}

// restOfLine returns data up to its first newline.
func restOfLine(data []byte) []byte {
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		return data[:i]
	}
	return data
}

// LineOffset returns the offset of the first byte of line (1-based) in data.
func LineOffset(data []byte, line int) (int, bool) {
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

// Merge adds edits to taken if none overlaps an edit already taken. An edit
// identical to a taken one is the same fix reached twice and is dropped.
func Merge(taken, edits map[string][]Edit) error {
	fresh := make(map[string][]Edit)
	for file, list := range edits {
		for _, e := range list {
			if slices.Contains(taken[file], e) || slices.Contains(fresh[file], e) {
				continue
			}
			for _, t := range append(slices.Clip(taken[file]), fresh[file]...) {
				if overlap(e, t) {
					return fmt.Errorf("it conflicts with another fix in %s", file)
				}
			}
			fresh[file] = append(fresh[file], e)
		}
	}
	for file, list := range fresh {
		taken[file] = append(taken[file], list...)
	}
	return nil
}

// overlap reports whether two edits touch the same bytes, or insert
// different text at the same place (whose order would be arbitrary).
func overlap(a, b Edit) bool {
	if a.Start == a.End && b.Start == b.End {
		return a.Start == b.Start
	}
	return a.Start < b.End && b.Start < a.End
}

// Apply returns data with the non-overlapping edits applied.
func Apply(data []byte, edits []Edit) []byte {
	sorted := slices.Clone(edits)
	// Insertions before replacements that start at the same place.
	slices.SortStableFunc(sorted, func(a, b Edit) int { return cmp.Or(a.Start-b.Start, a.End-b.End) })
	var out bytes.Buffer
	last := 0
	for _, e := range sorted {
		out.Write(data[last:e.Start])
		out.WriteString(e.Text)
		last = e.End
	}
	out.Write(data[last:])
	return out.Bytes()
}

// FormatLike gofmts fixed when old was gofmt-clean, so that fixes need not
// get indentation right, but an unformatted file is not reformatted whole.
func FormatLike(old, fixed []byte) []byte {
	if formatted, err := format.Source(old); err != nil || !bytes.Equal(formatted, old) {
		return fixed
	}
	if formatted, err := format.Source(fixed); err == nil {
		return formatted
	}
	return fixed
}

// Result returns the content of a file after edits, as -fix writes it:
// the edits applied, their line breaks made like the file's
// (MatchLineEndings), then gofmt where the file was gofmt-clean (a file
// with CRLF line breaks never is).
func Result(old []byte, edits []Edit) []byte {
	return FormatLike(old, Apply(old, MatchLineEndings(old, edits)))
}

// MatchLineEndings returns edits with the line breaks of their text made
// CRLF where the line an edit lands in ends with CRLF in data: the
// analyzers' fixes break lines with LF alone, and a file of CRLF lines
// (a checkout with core.autocrlf on Windows) keeps them.
func MatchLineEndings(data []byte, edits []Edit) []Edit {
	var out []Edit
	for i, e := range edits {
		if !strings.Contains(e.Text, "\n") || !endsWithCRLF(data, e.End) {
			continue
		}
		if out == nil {
			out = slices.Clone(edits)
		}
		out[i].Text = crlf(e.Text)
	}
	if out == nil {
		return edits
	}
	return out
}

// endsWithCRLF reports whether the line of data that holds offset ends
// with CRLF (the last line, without a line break, takes the line before).
func endsWithCRLF(data []byte, offset int) bool {
	offset = min(max(offset, 0), len(data))
	if i := bytes.IndexByte(data[offset:], '\n'); i >= 0 {
		return offset+i > 0 && data[offset+i-1] == '\r'
	}
	if i := bytes.LastIndexByte(data[:offset], '\n'); i > 0 {
		return data[i-1] == '\r'
	}
	return false
}

// crlf turns every LF of text that no CR precedes into CRLF.
func crlf(text string) string {
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' && (i == 0 || text[i-1] != '\r') {
			b.WriteByte('\r')
		}
		b.WriteByte(text[i])
	}
	return b.String()
}

// Between returns one edit that turns old into new: the bytes between their
// common prefix and common suffix, replaced. An editor applying it gets
// exactly new, with the cursor and marks outside the change left alone.
func Between(old, new []byte) Edit {
	prefix := 0
	for prefix < len(old) && prefix < len(new) && old[prefix] == new[prefix] {
		prefix++
	}
	suffix := 0
	for suffix < len(old)-prefix && suffix < len(new)-prefix && old[len(old)-1-suffix] == new[len(new)-1-suffix] {
		suffix++
	}
	// Never split a UTF-8 sequence: editors count in characters.
	inRune := func(data []byte, i int) bool { return i < len(data) && !utf8.RuneStart(data[i]) }
	for prefix > 0 && (inRune(old, prefix) || inRune(new, prefix)) {
		prefix--
	}
	for suffix > 0 && (inRune(old, len(old)-suffix) || inRune(new, len(new)-suffix)) {
		suffix--
	}
	return Edit{Start: prefix, End: len(old) - suffix, Text: string(new[prefix : len(new)-suffix])}
}

// UTF16Len is the length of text in UTF-16 code units, the unit of LSP
// positions and SARIF columns; an invalid byte counts as one.
func UTF16Len(text []byte) int {
	n := 0
	for len(text) > 0 {
		r, size := utf8.DecodeRune(text)
		n += max(1, utf16.RuneLen(r))
		text = text[size:]
	}
	return n
}
