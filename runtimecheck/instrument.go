package runtimecheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Instrumented is the overlay for one package and the site table it implies.
type Instrumented struct {
	Overlay string       // path of the overlay JSON for go test -overlay
	Sites   map[int]Site // site id → position in the user's file
	Files   []string     // the user's files the overlay replaces
}

// probeAt asks for the evidence at a finding's position file:line:col when
// no runtime call on its line is traced: a call marker (enter and exit
// records around the statement) when a Go call starts there, the call of a
// wrapper; otherwise, with Host, a probe before the statement (a host read).
type probeAt struct {
	File      string
	Line, Col int
	Host      bool
}

// edit replaces src[off:end] with text.
type edit struct {
	off, end int
	text     string
}

// instrument rewrites the cgo files of the package in dir (never in place:
// the results go to workDir) and writes the overlay. nextSite is the first
// site id to use; probes are inserted before the statements at those
// positions. The user's files are only read.
func instrument(dir string, files []string, workDir string, nextSite int, probes []probeAt) (*Instrumented, error) {
	inst := &Instrumented{Sites: map[int]Site{}}
	replace := map[string]string{}
	var apis []string
	sort.Strings(files)
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, file, src, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		cImport := findCImport(f)
		if cImport == nil {
			continue
		}
		var edits []edit
		// Calls C.hipX(args) become C.hiplint_hipX(C.int(site), args).
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); !ok || x.Name != "C" || !wrappable(sel.Sel.Name) {
				return true
			}
			pos := fset.Position(call.Pos())
			id := nextSite
			nextSite++
			inst.Sites[id] = Site{ID: id, File: file, Line: pos.Line, Col: pos.Column, API: sel.Sel.Name}
			apis = append(apis, sel.Sel.Name)
			off := fset.Position(sel.Sel.Pos()).Offset
			edits = append(edits, edit{off, off + len(sel.Sel.Name), "hiplint_" + sel.Sel.Name})
			arg := fmt.Sprintf("C.int(%d)", id)
			if len(call.Args) > 0 {
				arg += ", "
			}
			lp := fset.Position(call.Lparen).Offset + 1
			edits = append(edits, edit{lp, lp, arg})
			return true
		})
		for _, p := range probes {
			if p.File != file {
				continue
			}
			stmt := statementAt(fset, f, p.Line, p.Col)
			if stmt == nil || hasSiteOnLine(inst.Sites, file, p.Line) {
				continue // the runtime call on the line records it
			}
			call := goCallAt(fset, f, p.Line, p.Col, !p.Host)
			if call == nil && p.Host {
				// A pointer handed to a Go function (readLast(dst)): the
				// read is the callee's, a runtime call or a host read in it.
				call = goCallPassing(fset, f, p.Line, p.Col)
			}
			if call != nil {
				id := nextSite
				nextSite++
				inst.Sites[id] = Site{ID: id, File: file, Line: p.Line, Col: p.Col, API: MarkerAPI, Marker: true}
				edits = append(edits, markerEdits(fset, stmt, p.Line, id)...)
				continue
			}
			if !p.Host {
				continue
			}
			id := nextSite
			nextSite++
			inst.Sites[id] = Site{ID: id, File: file, Line: p.Line, Col: p.Col, API: "hiplint:probe", Probe: true}
			off := fset.Position(stmt.Pos()).Offset
			edits = append(edits, edit{off, off, fmt.Sprintf("C.hiplint_probe(C.int(%d)); ", id)})
		}
		if len(edits) == 0 {
			continue
		}
		edits = append(edits, preambleEdits(fset, f, cImport, file, src)...)
		out := applyEdits(src, edits)
		target := filepath.Join(workDir, fmt.Sprintf("%d_%s", len(replace), filepath.Base(file)))
		if err := os.WriteFile(target, out, 0o644); err != nil {
			return nil, err
		}
		replace[file] = target
		inst.Files = append(inst.Files, file)
	}
	if len(inst.Files) == 0 {
		return inst, nil
	}
	for name, text := range map[string]string{TraceHeader: generateHeader(apis), TraceSource: generateSource(apis)} {
		target := filepath.Join(workDir, filepath.Base(dir)+"_"+name)
		if err := os.WriteFile(target, []byte(text), 0o644); err != nil {
			return nil, err
		}
		replace[filepath.Join(dir, name)] = target
	}
	data, err := json.MarshalIndent(map[string]any{"Replace": replace}, "", "\t")
	if err != nil {
		return nil, err
	}
	inst.Overlay = filepath.Join(workDir, "overlay.json")
	return inst, os.WriteFile(inst.Overlay, data, 0o644)
}

// hasSiteOnLine reports whether a runtime call on file:line is wrapped.
func hasSiteOnLine(sites map[int]Site, file string, line int) bool {
	for _, s := range sites {
		if s.File == file && s.Line == line && !s.Probe && !s.Marker {
			return true
		}
	}
	return false
}

// goCallAt returns the Go call (not a C. or unsafe. call) at line:col, or
// with anyOnLine the first one starting on that line: the call of a wrapper
// a finding is on.
func goCallAt(fset *token.FileSet, f *ast.File, line, col int, anyOnLine bool) *ast.CallExpr {
	var exact, first *ast.CallExpr
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || !isGoCall(call) {
			return true
		}
		pos := fset.Position(call.Pos())
		if pos.Line == line && pos.Column == col && exact == nil {
			exact = call
		}
		if pos.Line == line && first == nil {
			first = call
		}
		return true
	})
	if exact != nil || !anyOnLine {
		return exact
	}
	return first
}

// isGoCall reports whether call calls a Go function: not C.f or unsafe.f,
// and not a conversion (*T)(x).
func isGoCall(call *ast.CallExpr) bool {
	if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
		if x, ok := sel.X.(*ast.Ident); ok && (x.Name == "C" || x.Name == "unsafe") {
			return false
		}
	}
	_, conv := call.Fun.(*ast.ParenExpr)
	return !conv
}

// goCallPassing returns the innermost Go call (not a C. or unsafe. call, not
// a conversion) one of whose arguments is a name or field starting at
// line:col: the value there is handed to the callee, which does the reading.
func goCallPassing(fset *token.FileSet, f *ast.File, line, col int) *ast.CallExpr {
	var best *ast.CallExpr
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || !isGoCall(call) {
			return true
		}
		for _, a := range call.Args {
			switch a.(type) {
			case *ast.Ident, *ast.SelectorExpr:
			default:
				continue
			}
			if pos := fset.Position(a.Pos()); pos.Line == line && pos.Column == col {
				best = call // calls nest inward as Inspect descends
			}
		}
		return true
	})
	return best
}

// markerEdits put hiplint_mark's enter record before stmt and its exit
// record after it, on the same lines: right after a simple statement; at the
// start of each branch and after an if statement whose header has the call;
// deferred to the function's return otherwise (a return statement, a loop).
func markerEdits(fset *token.FileSet, stmt ast.Stmt, line, id int) []edit {
	enter := fmt.Sprintf("C.hiplint_mark(C.int(%d), 0); ", id)
	exit := fmt.Sprintf("C.hiplint_mark(C.int(%d), 1)", id)
	start := fset.Position(stmt.Pos()).Offset
	end := fset.Position(stmt.End()).Offset
	switch s := stmt.(type) {
	case *ast.ExprStmt, *ast.AssignStmt, *ast.DeclStmt, *ast.IncDecStmt, *ast.SendStmt:
		return []edit{{start, start, enter}, {end, end, "; " + exit}}
	case *ast.IfStmt:
		if fset.Position(s.Body.Lbrace).Line >= line {
			out := []edit{{start, start, enter}, {end, end, "; " + exit}}
			lb := fset.Position(s.Body.Lbrace).Offset + 1
			out = append(out, edit{lb, lb, " " + exit + ";"})
			if e, ok := s.Else.(*ast.BlockStmt); ok {
				lb := fset.Position(e.Lbrace).Offset + 1
				out = append(out, edit{lb, lb, " " + exit + ";"})
			}
			return out
		}
	}
	return []edit{{start, start, enter + "defer " + exit + "; "}}
}

// findCImport returns the import "C" spec of f, if any.
func findCImport(f *ast.File) *ast.ImportSpec {
	for _, imp := range f.Imports {
		if imp.Path.Value == `"C"` {
			return imp
		}
	}
	return nil
}

// preambleEdits add #include "hiplint_trace.h" to the cgo preamble and a
// //line directive after import "C", so that everything below keeps its
// original line numbers in compiler messages and stack traces.
func preambleEdits(fset *token.FileSet, f *ast.File, imp *ast.ImportSpec, file string, src []byte) []edit {
	doc := imp.Doc
	var decl *ast.GenDecl
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			for _, s := range g.Specs {
				if s == imp {
					decl = g
				}
			}
		}
	}
	if doc == nil && decl != nil && !decl.Lparen.IsValid() {
		doc = decl.Doc
	}
	var edits []edit
	include := `#include "` + TraceHeader + `"`
	if doc == nil {
		off := fset.Position(imp.Pos()).Offset
		if decl != nil && !decl.Lparen.IsValid() {
			off = fset.Position(decl.Pos()).Offset
		}
		edits = append(edits, edit{off, off, "// " + include + "\n"})
	} else {
		last := doc.List[len(doc.List)-1]
		end := fset.Position(last.End()).Offset
		if strings.HasPrefix(last.Text, "/*") {
			text := "\n" + include + "\n"
			if end >= 3 && src[end-3] == '\n' {
				text = include + "\n"
			}
			edits = append(edits, edit{end - 2, end - 2, text})
		} else {
			edits = append(edits, edit{end, end, "\n// " + include})
		}
	}
	// The //line directive goes at the start of the line after import "C"
	// (after the closing parenthesis of a grouped import).
	endPos := imp.End()
	if decl != nil && decl.Rparen.IsValid() {
		endPos = decl.Rparen
	}
	end := fset.Position(endPos)
	nl := bytes.IndexByte(src[end.Offset:], '\n')
	if nl >= 0 {
		off := end.Offset + nl + 1
		edits = append(edits, edit{off, off, "//line " + file + ":" + strconv.Itoa(end.Line+1) + "\n"})
	}
	return edits
}

func applyEdits(src []byte, edits []edit) []byte {
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].off < edits[j].off })
	var b bytes.Buffer
	last := 0
	for _, e := range edits {
		if e.off < last {
			continue // overlapping edits cannot happen for calls; be safe
		}
		b.Write(src[last:e.off])
		b.WriteString(e.text)
		last = e.end
	}
	b.Write(src[last:])
	return b.Bytes()
}

// statementAt returns the innermost statement of a block (or case body) that
// contains line:col, so a probe can go right before it on the same line.
func statementAt(fset *token.FileSet, f *ast.File, line, col int) ast.Stmt {
	var best ast.Stmt
	contains := func(n ast.Node) bool {
		s, e := fset.Position(n.Pos()), fset.Position(n.End())
		return (s.Line < line || s.Line == line && s.Column <= col) && (e.Line > line || e.Line == line && e.Column >= col)
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			return false
		}
		if _, isFile := n.(*ast.File); !isFile && !contains(n) {
			return false
		}
		var list []ast.Stmt
		switch b := n.(type) {
		case *ast.BlockStmt:
			list = b.List
		case *ast.CaseClause:
			list = b.Body
		case *ast.CommClause:
			list = b.Body
		}
		for _, s := range list {
			if contains(s) {
				best = s
			}
		}
		return true
	})
	return best
}
