package flow

import (
	"cmp"
	"go/ast"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// InitOrder returns the package's init functions in the order the Go
// runtime runs them: the files in the order the go command hands them to
// the compiler (its Go files by name, then its cgo files by name: cgo's
// output comes after), each file's init functions in the order they are
// declared. Each runs on the state the ones before it left (a module
// loaded into a package variable, a copy left in flight, memory allocated
// into one), and the package's other functions all run after them.
func InitOrder(x *Index) []Func {
	x.build()
	type entry struct {
		f    Func
		cgo  bool
		name string
	}
	var inits []entry
	for _, f := range x.Funcs() {
		if f.Decl == nil || f.Decl.Recv != nil || f.Decl.Name.Name != "init" || f.Decl.Body == nil {
			continue
		}
		e := entry{f: f, name: filepath.Base(x.fset.Position(f.Decl.Pos()).Filename)}
		for _, file := range x.user { // x.files is dropped once built
			if file.Pos() <= f.Decl.Pos() && f.Decl.Pos() < file.End() {
				e.cgo = isCgoFile(x, file)
			}
		}
		inits = append(inits, e)
	}
	slices.SortStableFunc(inits, func(a, b entry) int {
		return cmp.Or(compareBool(a.cgo, b.cgo), cmp.Compare(a.name, b.name), cmp.Compare(a.f.Decl.Pos(), b.f.Decl.Pos()))
	})
	out := make([]Func, len(inits))
	for i, e := range inits {
		out[i] = e.f
	}
	return out
}

// isCgoFile reports whether file is one of the package's cgo files: cgo's
// rewrite of it (x.cgo1.go), or the file itself importing "C" (tier 3, vet).
func isCgoFile(x *Index, file *ast.File) bool {
	if tf := x.fset.File(file.Pos()); tf != nil && strings.HasSuffix(tf.Name(), ".cgo1.go") {
		return true
	}
	for _, imp := range file.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == "C" {
			return true
		}
	}
	return false
}

func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}
