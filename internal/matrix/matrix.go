package matrix

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// A Site is a marked declaration or note.
type Site struct {
	File string // slash path relative to the repository root
	Line int
	Name string // the declaration's name, for hazards, gaps and twins
	Why  string // for gaps and na
}

// A Cell is what the markers say of one row and family.
type Cell struct {
	Hazards, Twins, Gaps, NA []Site
}

// State is how the cell is covered: "covered", "gap", "na" or "missing".
func (c *Cell) State() string {
	switch {
	case len(c.Hazards) > 0 && len(c.Twins) > 0:
		return "covered"
	case len(c.Gaps) > 0 && len(c.Twins) > 0:
		return "gap"
	case len(c.NA) > 0:
		return "na"
	}
	return "missing"
}

// Matrix is the markers read from testdata, by row slug and family dir.
type Matrix struct {
	Cells map[string]map[string]*Cell
	// Problems are markers that break the rules: an unknown row, a hazard
	// without a want, a twin with one, a marker on no declaration.
	Problems []string
}

// Cell returns the cell of a row and family (never nil).
func (m *Matrix) Cell(row, family string) *Cell {
	if m.Cells[row] == nil {
		m.Cells[row] = map[string]*Cell{}
	}
	c := m.Cells[row][family]
	if c == nil {
		c = &Cell{}
		m.Cells[row][family] = c
	}
	return c
}

func knownRow(slug string) bool {
	for _, g := range Groups {
		for _, r := range g.Rows {
			if r.Slug == slug {
				return true
			}
		}
	}
	return false
}

// Read reads the markers of root/testdata/src/matrix.
func Read(root string) (*Matrix, error) {
	m := &Matrix{Cells: map[string]map[string]*Cell{}}
	base := filepath.Join(root, "testdata", "src", "matrix")
	for _, fam := range Families {
		dirs, err := filepath.Glob(filepath.Join(base, fam.Dir+"*"))
		if err != nil {
			return nil, err
		}
		for _, dir := range dirs {
			// copysync/ and copysynclib/, not a family whose name starts alike.
			if info, err := os.Stat(dir); err != nil || !info.IsDir() {
				continue
			}
			if err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
					return err
				}
				rel, err := filepath.Rel(root, path)
				if err != nil {
					return err
				}
				return m.readFile(path, filepath.ToSlash(rel), fam.Dir)
			}); err != nil {
				return nil, err
			}
		}
	}
	return m, nil
}

func (m *Matrix) readFile(path, rel, family string) error {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
	if err != nil {
		return err
	}
	var wants []token.Pos
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			// Diagnostics only: "// want `re`" or "// want \"re\"", not a
			// fact's "// want name:\"re\"" (a wrapper's summary is no finding).
			if rest, ok := strings.CutPrefix(c.Text, "// want "); ok && (strings.HasPrefix(rest, "`") || strings.HasPrefix(rest, `"`)) {
				wants = append(wants, c.Pos())
			}
		}
	}
	// Declarations in order, to find the one a marker stands above.
	decls := f.Decls
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			kind, rest, ok := strings.Cut(c.Text, " ")
			if !strings.HasPrefix(kind, "//matrix:") || !ok {
				if strings.HasPrefix(c.Text, "//matrix:") {
					m.problem(fset, c.Pos(), "marker without a row: %s", c.Text)
				}
				continue
			}
			kind = strings.TrimPrefix(kind, "//matrix:")
			slug, why, _ := strings.Cut(rest, ":")
			slug, why = strings.TrimSpace(slug), strings.TrimSpace(why)
			if !knownRow(slug) {
				m.problem(fset, c.Pos(), "unknown row %q", slug)
				continue
			}
			site := Site{File: rel, Line: fset.Position(c.Pos()).Line, Why: why}
			cell := m.Cell(slug, family)
			if kind == "na" {
				if why == "" {
					m.problem(fset, c.Pos(), "na without a reason")
				}
				cell.NA = append(cell.NA, site)
				continue
			}
			var decl ast.Decl
			for _, d := range decls {
				if d.Pos() > c.Pos() {
					decl = d
					break
				}
			}
			if decl == nil || fset.Position(decl.Pos()).Line-fset.Position(cg.End()).Line > 1 {
				m.problem(fset, c.Pos(), "marker %s stands above no declaration", kind)
				continue
			}
			site.Line = fset.Position(decl.Pos()).Line
			site.Name = declName(decl)
			hasWant := false
			for _, w := range wants {
				if w > decl.Pos() && w < decl.End() {
					hasWant = true
				}
			}
			switch kind {
			case "hazard":
				if !hasWant {
					m.problem(fset, c.Pos(), "hazard %s has no // want", site.Name)
					continue
				}
				cell.Hazards = append(cell.Hazards, site)
			case "twin":
				if hasWant {
					m.problem(fset, c.Pos(), "twin %s has a // want", site.Name)
					continue
				}
				cell.Twins = append(cell.Twins, site)
			case "gap":
				if why == "" || hasWant {
					if why == "" {
						m.problem(fset, c.Pos(), "gap without a reason")
					} else {
						m.problem(fset, c.Pos(), "gap %s has a // want: mark it hazard", site.Name)
					}
					continue
				}
				cell.Gaps = append(cell.Gaps, site)
			default:
				m.problem(fset, c.Pos(), "unknown marker %q", kind)
			}
		}
	}
	return nil
}

func declName(d ast.Decl) string {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv != nil && len(d.Recv.List) > 0 {
			t := d.Recv.List[0].Type
			for {
				switch x := t.(type) {
				case *ast.StarExpr:
					t = x.X
					continue
				case *ast.IndexExpr:
					t = x.X
					continue
				case *ast.IndexListExpr:
					t = x.X
					continue
				}
				break
			}
			if id, ok := t.(*ast.Ident); ok {
				return id.Name + "." + d.Name.Name
			}
		}
		return d.Name.Name
	case *ast.GenDecl:
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				return s.Name.Name
			case *ast.ValueSpec:
				return s.Names[0].Name
			}
		}
	}
	return "?"
}

func (m *Matrix) problem(fset *token.FileSet, pos token.Pos, format string, args ...any) {
	m.Problems = append(m.Problems, fset.Position(pos).String()+": "+fmt.Sprintf(format, args...))
}

// Missing lists the cells that have no hazard and twin, gap and twin, or na.
func (m *Matrix) Missing() []string {
	var out []string
	for _, g := range Groups {
		for _, r := range g.Rows {
			for _, fam := range Families {
				c := m.Cell(r.Slug, fam.Dir)
				switch {
				case c.State() != "missing":
				case len(c.Hazards)+len(c.Gaps) > 0:
					out = append(out, r.Slug+" × "+fam.Dir+": no safe twin")
				case len(c.Twins) > 0:
					out = append(out, r.Slug+" × "+fam.Dir+": a twin and no hazard")
				default:
					out = append(out, r.Slug+" × "+fam.Dir)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}
