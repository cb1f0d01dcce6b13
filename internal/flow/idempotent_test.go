package flow

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

const idempotentSrc = `package p

import "sync"

type M struct {
	h      *int
	loaded bool
	once   sync.Once
}

func free(*int) {}

func (m *M) CloseFlag() {
	if m.loaded {
		free(m.h)
		m.loaded = false
	}
}

func (m *M) CloseNil() {
	if m.h == nil {
		return
	}
	free(m.h)
	m.h = nil
}

func (m *M) CloseOnce() {
	m.once.Do(func() { free(m.h) })
}

func (m *M) CloseTwice() {
	if m.loaded {
		free(m.h)
	}
}

func (m *M) CloseAlias() {
	h := m.h
	if m.h == nil {
		return
	}
	m.h = nil
	free(h)
}
`

func TestIdempotentParams(t *testing.T) {
	f, info := checkSrc(t, idempotentSrc)
	released := func(call *ast.CallExpr) []ast.Expr {
		if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "free" {
			return call.Args
		}
		return nil
	}
	got := map[string][]int{}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil {
			continue
		}
		sig := info.Defs[fd.Name].(*types.Func).Signature()
		aliases, _ := ParamAliases(nil, info, fd.Body, sig)
		got[fd.Name.Name] = IdempotentParams(info, fd.Body, sig, []int{Receiver}, aliases, released)
	}
	assert.Equal(t, []int{Receiver}, got["CloseFlag"])
	assert.Equal(t, []int{Receiver}, got["CloseNil"])
	assert.Equal(t, []int{Receiver}, got["CloseOnce"])
	assert.Empty(t, got["CloseTwice"], "the guard is never cleared")
	assert.Equal(t, []int{Receiver}, got["CloseAlias"], "through a local alias of the field")
}
