package directive

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

func parseSrc(t *testing.T, src string) (*token.FileSet, *ast.File, []*Directive) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "a.go", src, parser.ParseComments)
	require.NoError(t, err)
	return fset, f, Parse(fset, f)
}

func TestParseForms(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text   string
		kind   Kind
		ids    []string
		reason string
		check  string // ID of the problem's check, "" when valid
	}{
		{"//hiplint:ignore HL2001 cached for the process", Ignore, []string{"HL2001"}, "cached for the process", ""},
		{"//hiplint:ignore HL2001,HL2002 two checks", Ignore, []string{"HL2001", "HL2002"}, "two checks", ""},
		{"//hiplint:ignore HL2001, HL2002 space after comma", Ignore, []string{"HL2001", "HL2002"}, "space after comma", ""},
		{"//hiplint:ignore HL2001 ,HL2002 space before comma", Ignore, []string{"HL2001", "HL2002"}, "space before comma", ""},
		{"//hiplint:ignore\tHL2001\treason  with   spaces ", Ignore, []string{"HL2001"}, "reason  with   spaces", ""},
		{"//hiplint:file-ignore HL4002 generated bindings", FileIgnore, []string{"HL4002"}, "generated bindings", ""},
		{"//hiplint:ignore HL2001", Ignore, []string{"HL2001"}, "", "HL0002"},
		{"//hiplint:ignore HL2001,", Ignore, []string{"HL2001"}, "", "HL0002"},
		{"//hiplint:ignore", Ignore, nil, "", "HL0002"},
		{"//hiplint:file-ignore   ", FileIgnore, nil, "", "HL0002"},
		{"//hiplint:disable HL2001 reason", Other, nil, "", "HL0003"},
	} {
		_, _, dirs := parseSrc(t, "package p\n\n"+tc.text+"\nvar x int\n")
		require.Len(t, dirs, 1, tc.text)
		d := dirs[0]
		assert.Equal(t, tc.kind, d.Kind, tc.text)
		assert.Equal(t, tc.ids, d.IDs, tc.text)
		assert.Equal(t, tc.reason, d.Reason, tc.text)
		assert.Equal(t, tc.check, d.ProblemCheck.ID, tc.text)
		assert.Equal(t, tc.check == "", d.Valid(), tc.text)
		if !d.Valid() {
			assert.NotEmpty(t, d.Problem, tc.text)
		}
		assert.Equal(t, 3, d.Posn.Line, tc.text)
	}
}

func TestNotDirectives(t *testing.T) {
	t.Parallel()
	_, _, dirs := parseSrc(t, `package p

// hiplint:ignore HL2001 a space after the slashes makes it prose
/* hiplint:ignore HL2001 block comments are not directives */
//nolint:hiplint // golangci-lint's own
//nolint:HL2001
var x int // hiplint checks this
`)
	assert.Empty(t, dirs)
}

func TestSuppressesLineAndLineAbove(t *testing.T) {
	t.Parallel()
	fset, f, dirs := parseSrc(t, `package p

func f() {
	//hiplint:ignore HL2001 above
	_ = 1
	_ = 2 //hiplint:ignore HL2002 trailing
	_ = 3
	_ = 4
}
`)
	require.Len(t, dirs, 2)
	at := func(line int) token.Position {
		return token.Position{Filename: fset.Position(f.Pos()).Filename, Line: line, Column: 2}
	}
	assert.True(t, dirs[0].Suppresses("HL2001", at(5)), "the line below")
	assert.True(t, dirs[0].Suppresses("HL2001", at(4)), "its own line")
	assert.False(t, dirs[0].Suppresses("HL2001", at(6)), "two lines below")
	assert.False(t, dirs[0].Suppresses("HL2001", at(3)), "the line above")
	assert.False(t, dirs[0].Suppresses("HL2002", at(5)), "another check")
	assert.True(t, dirs[1].Suppresses("HL2002", at(6)), "trailing: its own line")
	assert.False(t, dirs[1].Suppresses("HL2002", at(8)))
	other := at(5)
	other.Filename = "b.go"
	assert.False(t, dirs[0].Suppresses("HL2001", other), "another file")

	assert.Len(t, Suppressing(dirs, "HL2001", at(5)), 1)
	assert.Empty(t, Suppressing(dirs, "HL2003", at(5)))
}

func TestFileIgnoreCoversTheFile(t *testing.T) {
	t.Parallel()
	_, _, dirs := parseSrc(t, "package p\n\nvar x int\n\n//hiplint:file-ignore HL4001,HL4002 generated\n")
	require.Len(t, dirs, 1)
	for _, line := range []int{1, 3, 100} {
		assert.True(t, dirs[0].Suppresses("HL4002", token.Position{Filename: "a.go", Line: line}))
	}
	assert.False(t, dirs[0].Suppresses("HL4003", token.Position{Filename: "a.go", Line: 3}))
}

func TestMalformedSuppressesNothing(t *testing.T) {
	t.Parallel()
	_, _, dirs := parseSrc(t, "package p\n\n//hiplint:ignore HL2001\nvar x int\n//hiplint:file-ignore HL2001\n")
	require.Len(t, dirs, 2)
	for _, d := range dirs {
		assert.False(t, d.Suppresses("HL2001", token.Position{Filename: "a.go", Line: 4}))
	}
}

// Lines are compared after //line directives, as cgo's output needs.
func TestAdjustedLines(t *testing.T) {
	t.Parallel()
	// The //line directive says that the line after it is line 40 of user.go.
	_, _, dirs := parseSrc(t, "package p\n\n//line user.go:40:1\n//hiplint:ignore HL2001 mapped\nvar x int\n")
	require.Len(t, dirs, 1)
	assert.Equal(t, "user.go", dirs[0].Posn.Filename)
	assert.Equal(t, 40, dirs[0].Posn.Line)
	assert.True(t, dirs[0].Suppresses("HL2001", token.Position{Filename: "user.go", Line: 41}))
	assert.False(t, dirs[0].Suppresses("HL2001", token.Position{Filename: "a.go", Line: 5}), "the unadjusted position")
}

func TestFileOf(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	a, err := parser.ParseFile(fset, "a.go", "package p\nvar a int\n", 0)
	require.NoError(t, err)
	b, err := parser.ParseFile(fset, "b.go", "package p\nvar b int\n", 0)
	require.NoError(t, err)
	files := []*ast.File{a, b}
	assert.Same(t, b, FileOf(files, b.Decls[0].Pos()))
	assert.Same(t, a, FileOf(files, a.Decls[0].Pos()))
	assert.Nil(t, FileOf(files, token.NoPos))
}

func TestChecks(t *testing.T) {
	t.Parallel()
	for _, c := range Checks {
		assert.Regexp(t, `^HL000\d$`, c.ID)
		assert.NotEmpty(t, c.Title)
		assert.True(t, IsDirectiveCheck(c.ID))
	}
	assert.False(t, IsDirectiveCheck("HL2001"))
}

// staticcheck's //lint:ignore and //lint:file-ignore are aliases for
// hiplint's IDs; a //lint: directive naming none of them is not hiplint's.
func TestLintAlias(t *testing.T) {
	t.Parallel()
	src := `package p

//lint:ignore HL2001 cached for the process
var a int

//lint:ignore SA4006,HL2002 both linters
var b int

//lint:file-ignore HL4002 generated bindings

//lint:ignore SA4006 staticcheck's alone
var c int

//lint:ignore HL2003
var d int

//lint:sometool HL2001 not a verb hiplint knows
var e int
`
	_, _, dirs := parseSrc(t, src)
	require.Len(t, dirs, 4)
	assert.Equal(t, []string{"HL2001"}, dirs[0].IDs)
	assert.Equal(t, Ignore, dirs[0].Kind)
	assert.True(t, dirs[0].Valid())
	assert.Equal(t, 3, dirs[0].Posn.Line)
	assert.Equal(t, "//lint:ignore HL2001", dirs[0].Text())
	assert.Equal(t, []string{"HL2002"}, dirs[1].IDs, "staticcheck's IDs are left to it")
	assert.Equal(t, FileIgnore, dirs[2].Kind)
	assert.False(t, dirs[3].Valid(), "without a reason")
	assert.Equal(t, "HL0002", dirs[3].ProblemCheck.ID)
	assert.Contains(t, dirs[3].Problem, "//lint:ignore HL2003 gives no reason")
	assert.True(t, dirs[0].Suppresses("HL2001", token.Position{Filename: "a.go", Line: 4}))
}
