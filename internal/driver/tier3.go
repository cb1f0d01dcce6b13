package driver

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/hipapi"
	"golang.org/x/tools/go/packages"
)

// A Tier3Filter drops the findings that may rest on code a tier-3 analysis
// could not see. At tier 3 the analyzers know the runtime calls by name and
// the model's constants by value, but not C types: a method called on a
// value of a C type, a field of a C struct, a Go pointer converted to a C
// type (C.CUdeviceptr(uintptr(p))) all vanish from their view. Where such
// code decides a check (a status helper, an XNACK guard reading a device
// property, a host pointer passed as a device one), an analyzer would
// report a hazard that is not there. So a finding is dropped when
//
//   - one of its positions (where it is reported, or a related position)
//     lies in a function of a tier-3 package that holds such code (an
//     opaque function), or
//   - it is an XNACK check (HL4xxx: a guard is missing) and its package is,
//     or imports, a tier-3 package with an opaque function: guards live in
//     helper packages, away from the positions the finding names.
//
// Everything else a tier-3 package reports stands: the evidence for it is
// runtime calls recognized by name and Go code with its types.
type Tier3Filter struct {
	opaque   map[*token.File][]span // the opaque functions' spans, by file
	reaches  map[*packages.Package]bool
	fsetFile func(token.Pos) *token.File
}

type span struct{ from, to token.Pos }

// NewTier3Filter prepares the filter for the loaded graph of initial, whose
// tier-3 packages (and packages with imports not found: Triage.Partial)
// Classify listed in degraded. It returns nil when there are none.
func NewTier3Filter(initial []*packages.Package, degraded ...[]string) *Tier3Filter {
	isDegraded := map[string]bool{}
	for _, paths := range degraded {
		for _, path := range paths {
			isDegraded[path] = true
		}
	}
	if len(isDegraded) == 0 {
		return nil
	}
	f := &Tier3Filter{opaque: map[*token.File][]span{}, reaches: map[*packages.Package]bool{}}
	packages.Visit(initial, nil, func(p *packages.Package) {
		if f.fsetFile == nil && p.Fset != nil {
			fset := p.Fset
			f.fsetFile = fset.File
		}
		hasOpaque := false
		if isDegraded[p.PkgPath] && p.TypesInfo != nil && p.Types != nil {
			for _, file := range p.Syntax {
				tf := p.Fset.File(file.FileStart)
				for _, d := range file.Decls {
					if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && opaque(p.TypesInfo, fd.Body) {
						f.opaque[tf] = append(f.opaque[tf], span{fd.Pos(), fd.End()})
						hasOpaque = true
					}
				}
			}
		}
		reaches := hasOpaque
		for _, imp := range p.Imports {
			reaches = reaches || f.reaches[imp]
		}
		f.reaches[p] = reaches
	})
	return f
}

// Drop reports whether a finding of category id in pkg, at the positions
// posns (the report's and the related ones), is to be dropped. A nil filter
// drops nothing.
func (f *Tier3Filter) Drop(pkg *packages.Package, id string, posns []token.Pos) bool {
	if f == nil {
		return false
	}
	if strings.HasPrefix(id, "HL4") && f.reaches[pkg] {
		return true
	}
	for _, pos := range posns {
		if f.inOpaque(pos) {
			return true
		}
	}
	return false
}

func (f *Tier3Filter) inOpaque(pos token.Pos) bool {
	if !pos.IsValid() || f.fsetFile == nil {
		return false
	}
	for _, s := range f.opaque[f.fsetFile(pos)] {
		if s.from <= pos && pos < s.to {
			return true
		}
	}
	return false
}

// opaque reports whether body, type-checked at tier 3, holds code whose
// meaning depends on C types or values the analysis cannot see:
//
//   - a selector go/types could not resolve (a field of a C struct, a
//     method of a value of a C type);
//   - a C name other than a runtime function called on a Go pointer
//     (C.GoString(&s[0]), x := C.CUdeviceptr(uintptr(p))), except a
//     conversion that is a runtime call's argument (cgocall sees through
//     those);
//   - a C name whose value the API model does not hold (a macro of the
//     user's own, #define ATTR_PAGEABLE 65) as a runtime call's argument
//     or an operand of a comparison.
func opaque(info *types.Info, body *ast.BlockStmt) bool {
	found := false
	unknownValue := func(e ast.Expr) bool {
		if x, ok := cgocall.CConversion(info, e); ok {
			e = x
		}
		name, ok := cgocall.CSelector(info, e)
		if !ok {
			return false
		}
		_, known := hipapi.LookupConst(name)
		return !known
	}
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if _, isC := cgocall.CSelector(info, n); isC {
				return false
			}
			if info.Selections[n] == nil && info.Uses[n.Sel] == nil {
				found = true
			}
		case *ast.BinaryExpr:
			found = unknownValue(n.X) || unknownValue(n.Y)
		case *ast.CallExpr:
			name, isC := cgocall.CSelector(info, n.Fun)
			if !isC {
				return true
			}
			if _, runtime := hipapi.Lookup(name); runtime {
				for _, a := range n.Args {
					if unknownValue(a) {
						found = true
						return false
					}
					if x, ok := cgocall.CConversion(info, a); ok {
						a = x
					}
					ast.Inspect(a, visit)
				}
				return false
			}
			for _, a := range n.Args {
				if pointerish(info, a) {
					found = true
				}
			}
		}
		return !found
	}
	ast.Inspect(body, visit)
	return found
}

// pointerish reports whether e takes an address or converts to
// unsafe.Pointer or uintptr.
func pointerish(info *types.Info, e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.UnaryExpr:
			found = found || n.Op == token.AND
		case *ast.CallExpr:
			if tv, ok := info.Types[n.Fun]; ok && tv.IsType() {
				if b, ok := tv.Type.Underlying().(*types.Basic); ok && (b.Kind() == types.UnsafePointer || b.Kind() == types.Uintptr) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}
