package status

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

func TestStatuses(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", `package p
func alloc() error { return nil }
func two() (int, error) { return 0, nil }
func f() {
	err := alloc()
	n, err2 := two()
	other := 1
	err = nil
	_, _, _, _ = err, n, err2, other
}
`, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
	if _, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	// A "site" per call of alloc or two: 1 and 2.
	sitesIn := func(e ast.Expr) []int {
		if c, ok := e.(*ast.CallExpr); ok {
			switch c.Fun.(*ast.Ident).Name {
			case "alloc":
				return []int{1}
			case "two":
				return []int{2}
			}
		}
		return nil
	}
	var assigns []*ast.AssignStmt
	ast.Inspect(f, func(n ast.Node) bool {
		if a, ok := n.(*ast.AssignStmt); ok && !strings.HasPrefix(types.ExprString(a.Lhs[0]), "_") {
			assigns = append(assigns, a)
		}
		return true
	})
	obj := func(name string) types.Object {
		for id, o := range info.Defs {
			if id.Name == name && o != nil {
				return o
			}
		}
		t.Fatalf("no %s", name)
		return nil
	}
	var s Statuses
	s1 := s.Assign(info, assigns[0].Lhs, assigns[0].Rhs, sitesIn)  // err := alloc()
	s2 := s1.Assign(info, assigns[1].Lhs, assigns[1].Rhs, sitesIn) // n, err2 := two()
	s3 := s2.Assign(info, assigns[2].Lhs, assigns[2].Rhs, sitesIn) // other := 1: no change
	s4 := s3.Assign(info, assigns[3].Lhs, assigns[3].Rhs, sitesIn) // err = nil
	if s.Len() != 0 || s1.Len() != 1 || s2.Len() != 2 || s4.Len() != 1 {
		t.Fatalf("lengths %d %d %d %d, want 0 1 2 1 (earlier values are not modified)", s.Len(), s1.Len(), s2.Len(), s4.Len())
	}
	if got := s2.Sites(obj("err")); len(got) != 1 || got[0] != 1 {
		t.Errorf("err holds %v, want [1]", got)
	}
	if got := s2.Sites(obj("err2")); len(got) != 1 || got[0] != 2 {
		t.Errorf("err2 (v, err := f()) holds %v, want [2]", got)
	}
	if s2.Sites(obj("n")) != nil || s4.Sites(obj("err")) != nil {
		t.Errorf("n holds %v, err after err = nil holds %v; want none", s2.Sites(obj("n")), s4.Sites(obj("err")))
	}
	if !s3.Equal(s2) || s2.Equal(s1) {
		t.Errorf("Equal: s3 = s2 %v, s2 = s1 %v", s3.Equal(s2), s2.Equal(s1))
	}
	if j := s2.Join(s4); j.Len() != 1 || j.Sites(obj("err2")) == nil {
		t.Errorf("Join keeps what both paths hold (err2): got %d entries", j.Len())
	}
	if j := s1.Join(s); j.Len() != 0 {
		t.Errorf("Join with an empty path: %d entries, want 0", j.Len())
	}
}
