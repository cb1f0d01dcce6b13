package astwalk

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"golang.org/x/tools/go/ast/inspector"
)

// stdFiles parses the sources of a few standard packages, with comments,
// as the analyzers' packages are parsed.
func stdFiles(tb testing.TB) []*ast.File {
	tb.Helper()
	fset := token.NewFileSet()
	var files []*ast.File
	for _, dir := range []string{"go/ast", "go/types", "net/http"} {
		names, err := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", dir, "*.go"))
		if err != nil || len(names) == 0 {
			tb.Skipf("no sources of %s in GOROOT: %v", dir, err)
		}
		for _, name := range names {
			src, err := os.ReadFile(name)
			if err != nil {
				tb.Fatal(err)
			}
			f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				tb.Fatal(err)
			}
			files = append(files, f)
		}
	}
	return files
}

// TestPreorderMatchesInspect: Preorder visits the nodes ast.Inspect visits,
// in its order, and prunes where ast.Inspect prunes.
func TestPreorderMatchesInspect(t *testing.T) {
	files := stdFiles(t)
	prunes := map[string]func(ast.Node) bool{
		"none":   func(ast.Node) bool { return false },
		"blocks": func(n ast.Node) bool { _, ok := n.(*ast.BlockStmt); return ok },
		"calls":  func(n ast.Node) bool { _, ok := n.(*ast.CallExpr); return ok },
		"lits":   func(n ast.Node) bool { _, ok := n.(*ast.FuncLit); return ok },
	}
	for name, prune := range prunes {
		var want, got []ast.Node
		for _, f := range files {
			ast.Inspect(f, func(n ast.Node) bool {
				if n == nil {
					return false
				}
				want = append(want, n)
				return !prune(n)
			})
			Preorder(f, func(n ast.Node) bool {
				got = append(got, n)
				return !prune(n)
			})
		}
		if len(want) < 1000 {
			t.Fatalf("prune %s: only %d nodes", name, len(want))
		}
		if i := firstDiff(want, got); i >= 0 {
			t.Errorf("prune %s: node %d: ast.Inspect visits %T, Preorder %T (%d and %d nodes)", name, i, at(want, i), at(got, i), len(want), len(got))
		}
	}
	// A nil root, and a typed nil pointer, visit nothing or the pointer
	// as ast.Inspect does.
	n := 0
	Preorder(nil, func(ast.Node) bool { n++; return true })
	if n != 0 {
		t.Errorf("Preorder(nil) visited %d nodes", n)
	}
}

func firstDiff(a, b []ast.Node) int {
	for i := range max(len(a), len(b)) {
		if i >= len(a) || i >= len(b) || a[i] != b[i] {
			return i
		}
	}
	return -1
}

func at(ns []ast.Node, i int) ast.Node {
	if i < len(ns) {
		return ns[i]
	}
	return nil
}

// BenchmarkPreorder compares Preorder with ast.Inspect over the same files.
func BenchmarkPreorder(b *testing.B) {
	files := stdFiles(b)
	count := func(n ast.Node) bool { _, ok := n.(*ast.CallExpr); _ = ok; return true }
	b.Run("ast.Inspect", func(b *testing.B) {
		for b.Loop() {
			for _, f := range files {
				ast.Inspect(f, count)
			}
		}
	})
	b.Run("Preorder", func(b *testing.B) {
		for b.Loop() {
			for _, f := range files {
				Preorder(f, count)
			}
		}
	})
}

func BenchmarkPreorderInspector(b *testing.B) {
	files := stdFiles(b)
	in := inspector.New(files)
	b.Run("cursor-all", func(b *testing.B) {
		for b.Loop() {
			in.Root().Inspect(nil, func(c inspector.Cursor) bool { _, ok := c.Node().(*ast.CallExpr); _ = ok; return true })
		}
	})
	b.Run("cursor-calls", func(b *testing.B) {
		for b.Loop() {
			in.Root().Inspect([]ast.Node{(*ast.CallExpr)(nil)}, func(c inspector.Cursor) bool { return true })
		}
	})
	b.Run("new", func(b *testing.B) {
		for b.Loop() {
			inspector.New(files)
		}
	})
}
