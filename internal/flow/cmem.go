package flow

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// This file resolves pointers into C heap blocks: code that lays out data
// by hand in memory from C.malloc (a kernel argument block, an array of
// pointers) and stores into it through unsafe.Add, (*[n]T)(p)[i] and
// *(*T)(p) = v. It is flow-insensitive, over a package's Sources: a local
// variable assigned once is what it is assigned.

// CLoc is a constant byte offset into the C heap block a local variable
// holds.
type CLoc struct {
	Base types.Object
	Off  int64
}

// CMemory resolves expressions to C heap blocks and finds what the package
// stores into them.
type CMemory struct {
	Info    *types.Info
	Sizes   types.Sizes
	Sources *Sources
	// IsAlloc says whether a call (conversions seen through) returns a new
	// C heap block.
	IsAlloc func(call *ast.CallExpr) bool
	// Index, when set, walks the files over its list of nodes (Index.Walk):
	// the files must be its user files.
	Index *Index

	files  []*ast.File
	atLoc  map[CLoc][]ast.Expr
	inBuf  map[types.Object][]ast.Expr
	walked bool
}

// NewCMemory returns a CMemory over files whose allocations are the calls
// isAlloc accepts.
func NewCMemory(info *types.Info, sizes types.Sizes, src *Sources, files []*ast.File, isAlloc func(*ast.CallExpr) bool) *CMemory {
	return &CMemory{Info: info, Sizes: sizes, Sources: src, IsAlloc: isAlloc, files: files}
}

// IsCAlloc reports whether e is an allocation call, seen through
// conversions only.
func (m *CMemory) IsCAlloc(e ast.Expr) bool {
	call, ok := StripConversions(m.Info, e).(*ast.CallExpr)
	return ok && m.IsAlloc(call)
}

// localSource returns the one expression a local variable is assigned, if
// it is assigned exactly one.
func (m *CMemory) localSource(id *ast.Ident) (*types.Var, ast.Expr, bool) {
	v, ok := IsLocalVar(m.Info.Uses[id])
	if !ok {
		return nil, nil, false
	}
	srcs := m.Sources.Of[v]
	if len(srcs) != 1 || srcs[0].Expr == nil {
		return v, nil, false
	}
	return v, srcs[0].Expr, true
}

// Loc returns where in a C heap block e points: a variable assigned an
// allocation is offset 0 of its block; unsafe.Add(x, c), &x[c] (x a
// pointer to an array, or a slice), unsafe.Slice, unsafe.SliceData and
// conversions move from there. Bounded: 12 steps.
func (m *CMemory) Loc(e ast.Expr) (CLoc, bool) { return m.loc(e, 0) }

func (m *CMemory) loc(e ast.Expr, depth int) (CLoc, bool) {
	if depth > 12 || e == nil {
		return CLoc{}, false
	}
	switch x := StripConversions(m.Info, e).(type) {
	case *ast.CallExpr:
		switch unsafeBuiltin(m.Info, x) {
		case "Add":
			if len(x.Args) != 2 {
				return CLoc{}, false
			}
			c, ok := constInt(m.Info, x.Args[1])
			if !ok {
				return CLoc{}, false
			}
			l, ok := m.loc(x.Args[0], depth+1)
			l.Off += c
			return l, ok
		case "Slice", "SliceData":
			if len(x.Args) > 0 {
				return m.loc(x.Args[0], depth+1)
			}
		}
	case *ast.UnaryExpr:
		if ix, ok := ast.Unparen(x.X).(*ast.IndexExpr); ok && x.Op == token.AND {
			return m.elemLoc(ix, depth)
		}
	case *ast.Ident:
		v, src, ok := m.localSource(x)
		if !ok {
			return CLoc{}, false
		}
		if m.IsCAlloc(src) {
			return CLoc{v, 0}, true
		}
		return m.loc(src, depth+1)
	}
	return CLoc{}, false
}

// ElemLoc is the location of x[c], for x a pointer to an array or a slice
// in a C heap block.
func (m *CMemory) ElemLoc(ix *ast.IndexExpr) (CLoc, bool) { return m.elemLoc(ix, 0) }

func (m *CMemory) elemLoc(ix *ast.IndexExpr, depth int) (CLoc, bool) {
	var elem types.Type
	switch t := under(m.Info, ix.X).(type) {
	case *types.Slice:
		elem = t.Elem()
	case *types.Pointer:
		arr, ok := t.Elem().Underlying().(*types.Array)
		if !ok {
			return CLoc{}, false
		}
		elem = arr.Elem()
	default:
		return CLoc{}, false
	}
	c, ok := constInt(m.Info, ix.Index)
	if !ok {
		return CLoc{}, false
	}
	l, ok := m.loc(ix.X, depth+1)
	l.Off += c * m.Sizes.Sizeof(elem)
	return l, ok
}

// SlotBound is the number of elements of the array whose first element e
// points to, when its type says (&array[c] of a *[n]T), else max; never
// more than max.
func SlotBound(info *types.Info, e ast.Expr, max int64) int64 {
	u, ok := StripConversions(info, e).(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return max
	}
	ix, ok := ast.Unparen(u.X).(*ast.IndexExpr)
	if !ok {
		return max
	}
	p, ok := under(info, ix.X).(*types.Pointer)
	if !ok {
		return max
	}
	arr, ok := p.Elem().Underlying().(*types.Array)
	c, known := constInt(info, ix.Index)
	if !ok || !known || c > arr.Len() {
		return max
	}
	return min(arr.Len()-c, max)
}

// isAllocExpr reports whether e is an allocation, seen through conversions
// and unsafe.Slice, unsafe.Add and unsafe.SliceData.
func (m *CMemory) isAllocExpr(e ast.Expr, depth int) bool {
	for ; depth < 8; depth++ {
		call, ok := StripConversions(m.Info, e).(*ast.CallExpr)
		if !ok {
			return false
		}
		switch unsafeBuiltin(m.Info, call) {
		case "Slice", "SliceData", "Add":
			if len(call.Args) > 0 {
				e = call.Args[0]
				continue
			}
			return false
		}
		return m.IsAlloc(call)
	}
	return false
}

// Buffer returns the local variable holding the C heap block e points
// into (at any offset): through conversions ((*[n]unsafe.Pointer)(p)),
// unsafe.Slice, unsafe.Add, &x[i], x[i:], uintptr arithmetic and local
// variables assigned one such expression; nil when e is not (known to be)
// in a block. Bounded: 12 steps.
func (m *CMemory) Buffer(e ast.Expr) types.Object {
	for depth := 0; depth < 12 && e != nil; depth++ {
		switch x := StripConversions(m.Info, e).(type) {
		case *ast.CallExpr:
			switch unsafeBuiltin(m.Info, x) {
			case "Slice", "SliceData", "Add":
				if len(x.Args) > 0 {
					e = x.Args[0]
					continue
				}
			}
			return nil
		case *ast.UnaryExpr:
			ix, ok := ast.Unparen(x.X).(*ast.IndexExpr)
			if x.Op != token.AND || !ok {
				return nil
			}
			e = ix.X
		case *ast.SliceExpr:
			e = x.X
		case *ast.BinaryExpr:
			if x.Op != token.ADD {
				return nil
			}
			e = x.X
		case *ast.Ident:
			v, ok := IsLocalVar(m.Info.Uses[x])
			if !ok {
				return nil
			}
			srcs := m.Sources.Of[v]
			if slices.ContainsFunc(srcs, func(s Source) bool { return s.Expr != nil && m.isAllocExpr(s.Expr, depth) }) {
				return v
			}
			if len(srcs) != 1 || srcs[0].Expr == nil {
				return nil
			}
			e = srcs[0].Expr
		default:
			return nil
		}
	}
	return nil
}

// StoresAt returns what the package stores at l (*(*unsafe.Pointer)(
// unsafe.Add(block, 8)) = v, array[1] = v).
func (m *CMemory) StoresAt(l CLoc) []ast.Expr {
	m.walk()
	return m.atLoc[l]
}

// StoresInto returns what the package stores anywhere into the block buf
// holds (buf[i] = x, *(*unsafe.Pointer)(unsafe.Add(buf, 8)) = x).
func (m *CMemory) StoresInto(buf types.Object) []ast.Expr {
	m.walk()
	return m.inBuf[buf]
}

// walk indexes the stores into C memory, by offset and by block, in one
// walk of the package.
func (m *CMemory) walk() {
	if m.walked {
		return
	}
	m.walked = true
	m.atLoc, m.inBuf = map[CLoc][]ast.Expr{}, map[types.Object][]ast.Expr{}
	for _, f := range m.files {
		m.Index.Walk(f, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
				return true
			}
			for i, lhs := range as.Lhs {
				var at CLoc
				var into ast.Expr
				switch x := ast.Unparen(lhs).(type) {
				case *ast.StarExpr:
					at, ok = m.Loc(x.X)
					into = x.X
				case *ast.IndexExpr:
					at, ok = m.ElemLoc(x)
					into = x.X
				default:
					continue
				}
				if ok {
					m.atLoc[at] = append(m.atLoc[at], as.Rhs[i])
				}
				if buf := m.Buffer(into); buf != nil {
					m.inBuf[buf] = append(m.inBuf[buf], as.Rhs[i])
				}
			}
			return true
		})
	}
}
