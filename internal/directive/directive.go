// Package directive parses hiplint's suppression directives:
//
//	//hiplint:ignore ID[,ID...] reason        on the flagged line or the line above it
//	//hiplint:file-ignore ID[,ID...] reason   anywhere in a file, for the whole file
//
// A directive is a line comment that starts with "//hiplint:" (no space,
// like every Go directive). The IDs are separated by commas (a space after a
// comma is allowed); everything after them is the reason, which is required.
// A directive without a check ID or without a reason is malformed and
// suppresses nothing, under every driver.
//
// Directives are read from the comments of the files the analyzers see. For a
// package that imports "C" those are cgo's generated files, which keep the
// user's comments and whose //line directives map every line back to the
// user's file, so lines are always compared as adjusted positions
// (token.FileSet.Position), never as positions in the generated file. (The
// columns of comments in cgo's output are not the user's; lines are.)
//
// internal/diag applies the directives to every diagnostic it reports, so
// suppression works under go vet, golangci-lint and nogo alike. The
// standalone hiplint driver also reports problems with the directives
// themselves, with the check IDs in Checks: a directive that suppresses
// nothing, one without a check ID or a reason, and an unknown check ID.
//
// staticcheck's directives, //lint:ignore ID[,ID...] reason and
// //lint:file-ignore ID[,ID...] reason, are aliases: the hiplint check IDs
// (HL...) among their IDs are honoured like //hiplint:ignore's, and the
// others (staticcheck's own, SA4006) are left to staticcheck. A //lint:
// directive that names no hiplint check is not hiplint's, and is not
// reported whatever it says.
//
// golangci-lint's own //nolint comments are not hiplint directives and are
// ignored here; golangci-lint applies them itself.
package directive

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hiplint/hiplint/internal/diag/check"
)

// Prefix starts every hiplint directive.
const Prefix = "//hiplint:"

// LintPrefix starts staticcheck's directives, which hiplint honours for its
// own check IDs.
const LintPrefix = "//lint:"

// ownID reports whether id is a hiplint check ID (or looks like one), so
// that a //lint: directive naming it is hiplint's too.
func ownID(id string) bool { return strings.HasPrefix(id, "HL") }

// The checks about directives themselves, reported only by the standalone
// driver, which alone sees every diagnostic and every directive of a run.
// They cannot be suppressed.
var (
	Unused = check.Check{ID: "HL0001", Analyzer: "directive", Severity: check.Warning,
		Title: "suppression directive suppresses nothing"}
	Malformed = check.Check{ID: "HL0002", Analyzer: "directive", Severity: check.Error,
		Title: "suppression directive without a check ID or a reason"}
	Unknown = check.Check{ID: "HL0003", Analyzer: "directive", Severity: check.Error,
		Title: "suppression directive names an unknown check or directive"}
)

// Checks are the check IDs of problems with directives.
var Checks = []check.Check{Unused, Malformed, Unknown}

// IsDirectiveCheck reports whether id is one of Checks.
func IsDirectiveCheck(id string) bool {
	return slices.ContainsFunc(Checks, func(c check.Check) bool { return c.ID == id })
}

// Kind says what a directive suppresses.
type Kind int

const (
	Other      Kind = iota // //hiplint:something-else: suppresses nothing
	Ignore                 // //hiplint:ignore: findings on its line and the next
	FileIgnore             // //hiplint:file-ignore: findings anywhere in its file
)

// A Directive is one //hiplint: comment.
type Directive struct {
	Kind   Kind
	Prefix string   // Prefix, or LintPrefix for staticcheck's form
	Verb   string   // the word after the prefix, as written
	IDs    []string // the check IDs, as written
	Reason string

	Pos, End token.Pos      // the comment
	Posn     token.Position // where the comment is in the user's file (adjusted through //line)

	// Problem says why the directive suppresses nothing ("" when it is
	// well-formed), and ProblemCheck is the check that reports it.
	Problem      string
	ProblemCheck check.Check
}

// Valid reports whether d is well-formed, so that it can suppress findings.
func (d *Directive) Valid() bool { return d.Problem == "" }

// Suppresses reports whether d suppresses a finding of check id at posn, an
// adjusted position (token.FileSet.Position).
func (d *Directive) Suppresses(id string, posn token.Position) bool {
	if !d.Valid() || posn.Filename != d.Posn.Filename || !slices.Contains(d.IDs, id) {
		return false
	}
	switch d.Kind {
	case Ignore:
		return posn.Line == d.Posn.Line || posn.Line == d.Posn.Line+1
	case FileIgnore:
		return true
	}
	return false
}

// Parse returns the directives among the comments of file, in order.
func Parse(fset *token.FileSet, file *ast.File) []*Directive {
	var out []*Directive
	for _, group := range file.Comments {
		for _, c := range group.List {
			var d *Directive
			switch {
			case strings.HasPrefix(c.Text, Prefix):
				d = parse(c.Text, Prefix)
			case strings.HasPrefix(c.Text, LintPrefix):
				d = parseLint(c.Text)
			}
			if d == nil {
				continue
			}
			d.Pos, d.End = c.Pos(), c.End()
			d.Posn = fset.Position(c.Pos())
			out = append(out, d)
		}
	}
	return out
}

// parseLint parses staticcheck's form, //lint:ignore or //lint:file-ignore,
// keeping only hiplint's check IDs; it returns nil for a //lint: directive
// that is not hiplint's (another verb, or no hiplint ID).
func parseLint(text string) *Directive {
	d := parse(text, LintPrefix)
	if d.Kind == Other {
		return nil
	}
	var own []string
	for _, id := range d.IDs {
		if ownID(id) {
			own = append(own, id)
		}
	}
	if len(own) == 0 {
		return nil
	}
	d.IDs = own
	return d
}

// parse parses the text of one comment that starts with prefix.
func parse(text, prefix string) *Directive {
	rest := text[len(prefix):]
	verb, rest := cutField(rest)
	d := &Directive{Prefix: prefix, Verb: verb}
	switch verb {
	case "ignore":
		d.Kind = Ignore
	case "file-ignore":
		d.Kind = FileIgnore
	default:
		if prefix != Prefix {
			return d // not hiplint's: parseLint drops it
		}
		d.Problem = "unknown directive " + Prefix + Shorten(verb, maxField) + "; hiplint knows " + Prefix + "ignore and " + Prefix + "file-ignore"
		d.ProblemCheck = Unknown
		return d
	}

	// The ID list is the first field, continued while it ends in a comma
	// ("HL2001, HL2002" is one list) or the next field starts with one.
	var list string
	list, rest = cutField(rest)
	for {
		next, after := cutField(rest)
		if next == "" || !(strings.HasSuffix(list, ",") || strings.HasPrefix(next, ",")) {
			break
		}
		list, rest = list+next, after
	}
	for _, id := range strings.Split(list, ",") {
		if id = strings.TrimSpace(id); id != "" {
			d.IDs = append(d.IDs, id)
		}
	}
	d.Reason = strings.TrimSpace(rest)

	switch {
	case len(d.IDs) == 0:
		d.Problem = d.Text() + " names no check ID: write " + prefix + verb + " ID reason"
	case d.Reason == "":
		d.Problem = d.Text() + " gives no reason: say why the finding is wrong or acceptable after the check ID"
	}
	if d.Problem != "" {
		d.ProblemCheck = Malformed
	}
	return d
}

// cutField returns the first space-separated field of s and what follows it.
func cutField(s string) (field, rest string) {
	s = strings.TrimLeftFunc(s, unicode.IsSpace)
	i := strings.IndexFunc(s, unicode.IsSpace)
	if i < 0 {
		return s, ""
	}
	return s[:i], s[i:]
}

// Text is the directive without its reason, e.g. "//hiplint:ignore HL2001,HL2002",
// as messages quote it: control characters escaped, and a long list of IDs
// cut short with the number left out ("... and 9998 more"), so that one
// comment cannot flood the terminal.
func (d *Directive) Text() string {
	var b strings.Builder
	b.WriteString(cmp.Or(d.Prefix, Prefix) + Shorten(d.Verb, maxField))
	for i, id := range d.IDs {
		if i > 0 && b.Len() > maxText {
			fmt.Fprintf(&b, " ... and %d more", len(d.IDs)-i)
			break
		}
		if i == 0 {
			b.WriteByte(' ')
		} else {
			b.WriteByte(',')
		}
		b.WriteString(Shorten(id, maxField))
	}
	return b.String()
}

// Bounds on what messages quote of a directive.
const (
	maxField = 40  // bytes of one word (a check ID, the verb)
	maxText  = 100 // bytes of a directive's text before its IDs are cut short
)

// Shorten returns s as a message may quote it: every character that is not
// printable escaped as strconv.Quote escapes it (a directive is a comment,
// and comments may hold any byte but NUL and newline), and the result cut
// at max bytes with "...".
func Shorten(s string, max int) string {
	var b strings.Builder
	for i, r := range s {
		if b.Len() >= max {
			b.WriteString("...")
			break
		}
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], string(utf8.RuneError)):
			fmt.Fprintf(&b, `\x%02x`, s[i]) // a byte that is not UTF-8
		case unicode.IsPrint(r):
			b.WriteRune(r)
		default:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
	}
	return b.String()
}

// FileOf returns the file among files whose syntax contains pos, or nil.
func FileOf(files []*ast.File, pos token.Pos) *ast.File {
	for _, f := range files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

// Suppressing returns the directives among dirs that suppress a finding of
// check id at posn (adjusted).
func Suppressing(dirs []*Directive, id string, posn token.Position) []*Directive {
	var out []*Directive
	for _, d := range dirs {
		if d.Suppresses(id, posn) {
			out = append(out, d)
		}
	}
	return out
}
