package flow

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"golang.org/x/tools/go/analysis"
)

func TestFuncFields(t *testing.T) {
	const src = `package p

type Dev struct{}

func (d *Dev) Sync() error { return nil }
func copyD2D(n int) error   { return nil }
func other(n int) error     { return nil }

type Ops struct {
	sync  func() error
	copy  func(n int) error
	mixed func(n int) error
	lit   func() error
	n     int
}

func setup(d *Dev, f func(int) error) *Ops {
	o := &Ops{sync: d.Sync, copy: copyD2D, mixed: copyD2D}
	o.mixed = other
	o.lit = func() error { return nil }
	o.copy = copyD2D
	return o
}

func use(o *Ops) { o.sync(); o.copy(1); o.mixed(2) }

var transfers = map[string]func(n int) error{"d2d": copyD2D}

var twoFuncs = map[string]func(n int) error{"a": copyD2D, "b": other}

var passed = map[string]func(n int) error{"d2d": copyD2D}

var added = map[string]func(n int) error{"d2d": copyD2D}

func keep(map[string]func(n int) error) {}

func useMaps() {
	transfers["d2d"](1)
	twoFuncs["a"](2)
	keep(passed)
	passed["d2d"](3)
	added["x"] = other
	added["d2d"](4)
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{},
		Types: map[ast.Expr]types.TypeAndValue{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	pkg, err := (&types.Config{}).Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	pass := &analysis.Pass{Fset: fset, Files: []*ast.File{f}, Pkg: pkg, TypesInfo: info}
	fields := (NewIndex(fset, pass.Files, info)).FuncFields(pass)
	got := map[string]string{}
	for v, fn := range fields {
		got[v.Name()] = fn.Name()
	}
	want := map[string]string{"sync": "Sync", "copy": "copyD2D", "transfers": "copyD2D"}
	if len(got) != len(want) || got["sync"] != "Sync" || got["copy"] != "copyD2D" || got["transfers"] != "copyD2D" {
		t.Errorf("FuncFields = %v, want %v", got, want)
	}
	calls := 0
	ast.Inspect(f, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if fn := FieldCallee(info, fields, call); fn != nil {
				calls++
			}
		}
		return true
	})
	// o.sync(), o.copy(1) and transfers["d2d"](1); o.mixed and twoFuncs
	// hold two functions, passed is passed on, added is added to.
	if calls != 3 {
		t.Errorf("FieldCallee resolved %d calls, want 3", calls)
	}
}
