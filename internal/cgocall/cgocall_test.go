package cgocall_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/hipapi"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// nthIndex returns the byte index of the n-th (0-based) occurrence of sub in s, or -1.
func nthIndex(s, sub string, n int) int {
	off := 0
	for {
		i := strings.Index(s[off:], sub)
		if i < 0 {
			return -1
		}
		if n == 0 {
			return off + i
		}
		n--
		off += i + len(sub)
	}
}

// TestInspect walks every user file of the testdata packages and checks that
// the runtime calls found are exactly the annotated ones, with the user's
// arguments, reported at the user's C.name( in the user's file.
func TestInspect(t *testing.T) {
	pkgs := load(t)
	for _, name := range append(cgoPackages[:len(cgoPackages):len(cgoPackages)], "plain") {
		t.Run(name, func(t *testing.T) {
			pkg := pkgs[name]
			wantCalls, wantKinds := annotations(t, pkg)
			if name != "plain" {
				require.NotEmpty(t, wantCalls, "no // call: annotations in %v", pkg.GoFiles)
			}
			src := map[string][]string{}
			for _, path := range pkg.GoFiles {
				src[path] = sourceLines(t, path)
			}

			var gotCalls, gotKinds []annotation
			for _, f := range userFiles(pkg) {
				var prev token.Position
				prevLine := 0
				seen := map[string]int{} // "line name" → calls of name found on line so far
				cgocall.Inspect(pkg.TypesInfo, f, func(c *cgocall.Call) bool {
					pos := pkg.Fset.Position(c.Pos())
					lines, ok := src[pos.Filename]
					require.True(t, ok, "%s reported at %s, which is not one of the user files %v", c.Name(), pos, pkg.GoFiles)
					require.NotContains(t, pos.Filename, ".cgo1.go")
					raw := pkg.Fset.PositionFor(c.Pos(), false)
					assert.NotEqual(t, raw.Filename, pos.Filename, "position of %s not adjusted by //line", c.Name())

					assert.True(t, prev.Line < pos.Line || prev.Line == pos.Line && prev.Column <= pos.Column,
						"%s at %s yielded after %s: not in source order", c.Name(), pos, prev)
					prev = pos

					f, ok := hipapi.Lookup(c.Name())
					require.True(t, ok, c.Name())
					assert.Same(t, f, c.Func)
					assert.Less(t, c.Pos(), c.End())

					// The first call on a line starts exactly at the user's
					// C.name(. Later ones only keep their order: cgo emits no
					// line directive after a wrapper literal, so the column of
					// whatever follows one on the same line runs past the
					// user's text.
					key := fmt.Sprintf("%d %s", pos.Line, c.Name())
					i := nthIndex(lines[pos.Line], "C."+c.Name()+"(", seen[key])
					seen[key]++
					if assert.GreaterOrEqual(t, i, 0, "%s: no C.%s( on line %d: %q", pos, c.Name(), pos.Line, lines[pos.Line]) {
						if pos.Line != prevLine {
							assert.Equal(t, i+1, pos.Column, "%s: column of C.%s( in %q", pos, c.Name(), lines[pos.Line])
						} else {
							assert.GreaterOrEqual(t, pos.Column, i+1, "%s: column of C.%s( in %q", pos, c.Name(), lines[pos.Line])
						}
					}
					prevLine = pos.Line

					end := pkg.Fset.Position(c.End())
					args := make([]string, len(c.Args))
					for i, a := range c.Args {
						args[i] = render(a)
						assert.NotRegexp(t, cgoTemp, args[i], "%s: argument %d of %s holds a cgo temporary", pos, i, c.Name())
						apos := pkg.Fset.Position(a.Pos())
						assert.Equal(t, pos.Filename, apos.Filename)
						assert.True(t, apos.Line >= pos.Line && apos.Line <= end.Line,
							"%s: argument %d of %s at %s, outside the call", pos, i, c.Name(), apos)
						// Every identifier is the type checker's own node.
						ast.Inspect(a, func(n ast.Node) bool {
							if id, ok := n.(*ast.Ident); ok && id.Name != "_" {
								assert.NotNil(t, pkg.TypesInfo.Uses[id], "%s: argument %s of %s: identifier %s not in TypesInfo.Uses", pos, args[i], c.Name(), id.Name)
							}
							return true
						})
					}
					gotCalls = append(gotCalls, annotation{filepath.Base(pos.Filename), pos.Line, callText(c.Name(), args)})

					if c.Func.Kind != 0 {
						k := c.Arg(c.Func.Kind)
						require.NotNil(t, k, "%s: %s without its kind argument", pos, c.Name())
						cname, value := "-", "-"
						if n, ok := cgocall.ConstName(pkg.TypesInfo, k); ok {
							cname = n
						}
						if v, ok := cgocall.IntValue(pkg.TypesInfo, k); ok {
							value = strconv.FormatInt(v, 10)
						}
						gotKinds = append(gotKinds, annotation{filepath.Base(pos.Filename), pos.Line, cname + "=" + value})
					}
					return true
				})
			}
			assert.Equal(t, strs(wantCalls), strs(gotCalls))
			assert.Equal(t, strs(wantKinds), strs(gotKinds))
		})
	}
}

func TestInspectStops(t *testing.T) {
	pkg := load(t)["hipcalls"]
	n := 0
	for _, f := range userFiles(pkg) {
		cgocall.Inspect(pkg.TypesInfo, f, func(*cgocall.Call) bool {
			n++
			return false
		})
	}
	assert.Equal(t, 1, n)
}

// TestCallArgs checks the accessors on a few calls by role.
func TestCallArgs(t *testing.T) {
	pkg := load(t)["hipcalls"]
	byName := map[string][]*cgocall.Call{}
	for _, f := range userFiles(pkg) {
		cgocall.Inspect(pkg.TypesInfo, f, func(c *cgocall.Call) bool {
			byName[c.Name()] = append(byName[c.Name()], c)
			return true
		})
	}
	require.NotEmpty(t, byName["hipMalloc"])
	m := byName["hipMalloc"][0]
	assert.Equal(t, "&p", render(m.Arg(m.Func.Out)))
	assert.Equal(t, "n", render(m.Arg(m.Func.Size)))
	assert.Nil(t, m.Arg(m.Func.Stream), "hipMalloc has no stream")
	assert.Nil(t, m.Arg(hipapi.At(7)), "out of range")
	// &p is cgo's own copy of the user's expression: it keeps its type.
	assert.Equal(t, "*unsafe.Pointer", pkg.TypesInfo.TypeOf(m.Arg(m.Func.Out)).String())

	var async *cgocall.Call
	for _, c := range byName["hipMemcpyAsync"] {
		async = c
	}
	require.NotNil(t, async)
	assert.Equal(t, "s", render(async.Arg(async.Func.Stream)))
	assert.Equal(t, "kindD2D", render(async.Arg(async.Func.Kind)))

	// Rebuilt arguments keep the user's identifiers, with their objects.
	var converted *cgocall.Call
	for _, c := range byName["hipMalloc"] {
		if render(c.Args[0]) == "(*unsafe.Pointer)(unsafe.Pointer(&p))" {
			converted = c
		}
	}
	require.NotNil(t, converted)
	var p *ast.Ident
	ast.Inspect(converted.Args[0], func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == "p" {
			p = id
		}
		return true
	})
	require.NotNil(t, p)
	obj := pkg.TypesInfo.Uses[p]
	require.NotNil(t, obj)
	assert.Equal(t, "unsafe.Pointer", obj.Type().String())
	assert.Equal(t, "Converted", enclosingFunc(pkg, obj.Pos()))
}

// enclosingFunc names the function declaration holding pos.
func enclosingFunc(pkg *packages.Package, pos token.Pos) string {
	for _, f := range pkg.Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Pos() <= pos && pos < fd.End() {
				return fd.Name.Name
			}
		}
	}
	return ""
}

func TestMatchNonCalls(t *testing.T) {
	pkg := load(t)["hipcalls"]
	info := pkg.TypesInfo
	var n int
	for _, f := range userFiles(pkg) {
		ast.Inspect(f, func(node ast.Node) bool {
			switch e := node.(type) {
			case *ast.Ident, *ast.BasicLit, *ast.SelectorExpr, *ast.FuncLit:
				assert.Nil(t, cgocall.Match(info, e.(ast.Expr)))
				n++
			}
			return true
		})
	}
	assert.Positive(t, n)
	assert.Nil(t, cgocall.Match(info, &ast.CallExpr{Fun: ast.NewIdent("hipMalloc")}))
}

// TestIsWrapper classifies every function literal of the cgo-processed
// files: a literal at the position of a func keyword in the user's source is
// a user closure; every other literal is one cgo generated.
func TestIsWrapper(t *testing.T) {
	pkgs := load(t)
	for _, name := range cgoPackages {
		t.Run(name, func(t *testing.T) {
			pkg := pkgs[name]
			userLits := map[string]bool{}
			fset := token.NewFileSet()
			for _, path := range pkg.GoFiles {
				f, err := parser.ParseFile(fset, path, nil, 0)
				require.NoError(t, err)
				ast.Inspect(f, func(n ast.Node) bool {
					if lit, ok := n.(*ast.FuncLit); ok {
						userLits[fset.Position(lit.Pos()).String()] = true
					}
					return true
				})
			}
			var wrappers, closures int
			for _, f := range userFiles(pkg) {
				ast.Inspect(f, func(n ast.Node) bool {
					lit, ok := n.(*ast.FuncLit)
					if !ok {
						return true
					}
					pos := pkg.Fset.Position(lit.Pos())
					if userLits[pos.String()] {
						closures++
						assert.False(t, cgocall.IsWrapper(pkg.TypesInfo, lit), "user closure at %s", pos)
					} else {
						wrappers++
						assert.True(t, cgocall.IsWrapper(pkg.TypesInfo, lit), "cgo literal at %s (%s)", pos, pkg.Fset.PositionFor(lit.Pos(), false))
					}
					return true
				})
			}
			assert.Equal(t, len(userLits), closures, "user closures seen")
			assert.Positive(t, wrappers)
			t.Logf("%d cgo literals, %d user closures", wrappers, closures)
		})
	}
}

// TestIsWrapperDeferredForm checks both literals of cgo's deferred form,
// func() func() { temporaries; return func() { checks; call } }()().
func TestIsWrapperDeferredForm(t *testing.T) {
	pkg := load(t)["hipcalls"]
	var got []string
	for _, f := range userFiles(pkg) {
		ast.Inspect(f, func(n ast.Node) bool {
			d, ok := n.(*ast.DeferStmt)
			if !ok {
				return true
			}
			fun, ok := d.Call.Fun.(*ast.CallExpr)
			if !ok {
				return true
			}
			pos := pkg.Fset.Position(d.Pos())
			outer, ok := fun.Fun.(*ast.FuncLit)
			require.True(t, ok, pos)
			assert.True(t, cgocall.IsWrapper(pkg.TypesInfo, outer), pos)
			ret := outer.Body.List[len(outer.Body.List)-1].(*ast.ReturnStmt)
			assert.True(t, cgocall.IsWrapper(pkg.TypesInfo, ret.Results[0].(*ast.FuncLit)), pos)
			if c := cgocall.Match(pkg.TypesInfo, d.Call); c != nil {
				assert.Same(t, d.Call, c.Expr)
				got = append(got, c.Name())
			} else {
				got = append(got, "-")
			}
			return true
		})
	}
	// defer C.free(unsafe.Pointer(cs)) has the form too, but free is not a runtime call.
	assert.ElementsMatch(t, []string{"hipModuleUnload", "hipMemcpy", "-"}, got)
}

func TestIsSupportFile(t *testing.T) {
	pkgs := load(t)
	for _, name := range cgoPackages {
		pkg := pkgs[name]
		var support []*ast.File
		for _, f := range pkg.Syntax {
			if cgocall.IsSupportFile(pkg.Fset, f) {
				support = append(support, f)
				continue
			}
			// The others are the user's files as cgo rewrote them.
			pos := pkg.Fset.Position(f.Package)
			assert.Contains(t, pkg.GoFiles, pos.Filename)
		}
		// go list -compiled names cgo's outputs after their content hash, so
		// only the content tells _cgo_gotypes.go apart.
		t.Logf("%s: compiled files %v", name, pkg.CompiledGoFiles)
		require.Len(t, support, 1, name)
		assert.NotNil(t, support[0].Scope.Lookup("_Cgo_ptr"), "%s: the support file is _cgo_gotypes.go", name)
		assert.Len(t, userFiles(pkg), len(pkg.Syntax)-1)
	}
	for _, f := range pkgs["plain"].Syntax {
		assert.False(t, cgocall.IsSupportFile(pkgs["plain"].Fset, f))
	}
}

func TestIsSupportFileNames(t *testing.T) {
	const header = "// Code generated by cmd/cgo; DO NOT EDIT.\n\n"
	for _, tc := range []struct {
		name, src string
		mode      parser.Mode
		want      bool
	}{
		{"/b001/_cgo_gotypes.go", "package p\n", parser.ParseComments, true},
		{"/b001/_cgo_import.go", "package p\n//go:cgo_import_dynamic hipMalloc hipMalloc \"libamdhip64.so\"\n", parser.ParseComments, true},
		{"/b001/x.cgo1.go", header + "//line /src/p/x.go:1:1\npackage p\n", parser.ParseComments, false},
		{"/cache/ab/abcdef-d", "//go:cgo_ldflag \"-g\"\n" + header + "package p\n", parser.ParseComments, true},
		{"/cache/ab/abcdef-d", header + "package p\nfunc _Cgo_ptr(p uintptr) uintptr { return p }\n", 0, true},
		{"/cache/cd/cdef01-d", header + "//line /src/p/x.go:1:1\npackage p\n", parser.ParseComments, false},
		{"/src/p/x.go", "package p\n", parser.ParseComments, false},
		{"/src/p/gen.go", "// Code generated by stringer; DO NOT EDIT.\n\npackage p\n", parser.ParseComments, false},
		{"/src/p/x.go", "// Package p.\n//line /src/p/y.go:1:1\npackage p\n", parser.ParseComments, false},
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, tc.name, tc.src, tc.mode)
		require.NoError(t, err)
		assert.Equal(t, tc.want, cgocall.IsSupportFile(fset, f), "%s: %q", tc.name, tc.src)
	}
}

func TestUsesCgo(t *testing.T) {
	pkgs := load(t)
	for _, name := range cgoPackages {
		pkg := pkgs[name]
		var imports []string
		for _, imp := range pkg.Types.Imports() {
			imports = append(imports, imp.Path())
		}
		t.Logf("%s: types.Package.Imports() = %v", name, imports)
		// "C" itself is gone after cgo processing; _cgo_gotypes.go imports
		// runtime/cgo (as _cgopackage), syscall and unsafe.
		assert.Contains(t, imports, "runtime/cgo", name)
		assert.NotContains(t, imports, "C", name)
		assert.True(t, cgocall.UsesCgo(pkg.Types), name)
	}
	// plain imports a cgo package but does not use cgo itself.
	assert.False(t, cgocall.UsesCgo(pkgs["plain"].Types))
	assert.False(t, cgocall.UsesCgo(types.NewPackage("example.com/empty", "empty")))
	p := types.NewPackage("example.com/fake", "fake")
	p.SetImports([]*types.Package{types.NewPackage("C", "C")})
	assert.True(t, cgocall.UsesCgo(p), "a package type-checked with FakeImportC")
}

// TestCallsRuntime: the analyzers' fast path skips cgo packages that call no
// runtime function, whether the prototypes come from the headers or are
// declared by hand.
func TestCallsRuntime(t *testing.T) {
	pkgs := load(t)
	for _, name := range cgoPackages {
		assert.True(t, cgocall.CallsRuntime(pkgs[name].Types), name)
	}
	assert.True(t, cgocall.UsesCgo(pkgs["cgonogpu"].Types))
	assert.False(t, cgocall.CallsRuntime(pkgs["cgonogpu"].Types), "cgo, but no runtime call")
	assert.False(t, cgocall.CallsRuntime(pkgs["plain"].Types), "no cgo")
}

func TestIsCType(t *testing.T) {
	pkgs := load(t)
	typeOf := func(pkg, name string) types.Type {
		t.Helper()
		obj := pkgs[pkg].Types.Scope().Lookup(name)
		require.NotNil(t, obj, "%s.%s", pkg, name)
		return obj.Type()
	}
	for _, tc := range []struct {
		pkg, v, ctype string
		want          bool
	}{
		{"hipcalls", "Module", "hipModule_t", true},
		{"hipcalls", "Module", "hipStream_t", false},
		{"hipcalls", "Stream", "hipStream_t", true},
		{"hipcalls", "Status", "hipError_t", true},
		{"hipcalls", "Kind", "hipMemcpyKind", true},
		{"hipcalls", "Int", "int", true},
		{"hipcalls", "Int", "uint", false},
		// Aliases: size_t = ulong, a struct typedef = struct_x, a void* typedef = unsafe.Pointer.
		{"hipcalls", "Size", "size_t", true},
		{"hipcalls", "Size", "ulong", true},
		{"hipcalls", "AllocParam", "hipMemAllocNodeParams", true},
		{"hipcalls", "AllocParam", "struct_hipMemAllocNodeParams", true},
		{"hipcalls", "Prop", "hipDeviceProp_t", true},
		{"hipcalls", "DevPtr", "hipDeviceptr_t", true},
		// Not the C type itself.
		{"hipcalls", "ModulePtr", "hipModule_t", false},
		{"hipcalls", "GoInt", "int", false},
		{"hipcalls", "MyModule", "hipModule_t", false},
		{"cudacalls", "Status", "cudaError_t", true},
		{"cudacalls", "DriverStatus", "CUresult", true},
		{"cudacalls", "DevPtr", "CUdeviceptr", true},
		{"cudacalls", "DevPtr", "ulonglong", true},
		{"cudacalls", "AllocParams", "CUDA_MEM_ALLOC_NODE_PARAMS", true},
		{"cudacalls", "Status", "CUresult", false},
	} {
		assert.Equal(t, tc.want, cgocall.IsCType(typeOf(tc.pkg, tc.v), tc.ctype), "%s.%s is C.%s", tc.pkg, tc.v, tc.ctype)
	}
	assert.False(t, cgocall.IsCType(types.Typ[types.Int], "int"))
	assert.False(t, cgocall.IsCType(types.Typ[types.UnsafePointer], "hipDeviceptr_t"))
}

// TestConstants checks ConstName and IntValue on C constants outside calls.
func TestConstants(t *testing.T) {
	pkg := load(t)["hipcalls"]
	info := pkg.TypesInfo
	var seen []string
	for _, f := range userFiles(pkg) {
		ast.Inspect(f, func(n ast.Node) bool {
			vs, ok := n.(*ast.ValueSpec)
			if !ok || len(vs.Values) != 1 {
				return true
			}
			switch vs.Names[0].Name {
			case "kindD2D", "kindH2D": // kindD2D = C.hipMemcpyDeviceToDevice
				name, ok := cgocall.ConstName(info, vs.Values[0])
				require.True(t, ok)
				v, ok := cgocall.IntValue(info, vs.Values[0])
				require.True(t, ok)
				seen = append(seen, fmt.Sprintf("%s=%d", name, v))
				c, ok := hipapi.LookupConst(name)
				require.True(t, ok, name)
				assert.Equal(t, hipapi.CopyKind, c.Role)
				assert.Equal(t, c.Value, v)
			case "kinds": // []C.hipMemcpyKind{kindD2D, kindH2D, C.hipMemcpyDefault}
				elts := vs.Values[0].(*ast.CompositeLit).Elts
				require.Len(t, elts, 3)
				_, ok := cgocall.ConstName(info, elts[0])
				assert.False(t, ok, "a Go constant is not a C constant")
				v, ok := cgocall.IntValue(info, elts[0])
				assert.True(t, ok)
				assert.EqualValues(t, hipapi.KindDeviceToDevice, v)
				name, ok := cgocall.ConstName(info, elts[2])
				assert.True(t, ok)
				assert.Equal(t, "hipMemcpyDefault", name)
				v, ok = cgocall.IntValue(info, elts[2])
				assert.True(t, ok)
				assert.EqualValues(t, hipapi.KindDefault, v)
				seen = append(seen, "kinds")
			}
			return true
		})
	}
	assert.ElementsMatch(t, []string{"hipMemcpyDeviceToDevice=3", "hipMemcpyHostToDevice=1", "kinds"}, seen)

	// Not constants.
	_, ok := cgocall.IntValue(info, ast.NewIdent("x"))
	assert.False(t, ok)
	_, ok = cgocall.ConstName(info, &ast.BasicLit{Kind: token.INT, Value: "3"})
	assert.False(t, ok)
}

// TestIsCTypeROCm6Rename: ROCm 6's header makes hipDeviceProp_t a macro
// naming struct hipDeviceProp_tR0600, so cgo's type carries that name.
func TestIsCTypeROCm6Rename(t *testing.T) {
	named := func(name string) types.Type {
		return types.NewNamed(types.NewTypeName(0, nil, name, nil), types.NewStruct(nil, nil), nil)
	}
	assert.True(t, cgocall.IsCType(named("_Ctype_struct_hipDeviceProp_tR0600"), "struct_hipDeviceProp_t"))
	assert.True(t, cgocall.IsCType(named("_Ctype_hipDeviceProp_tR0600"), "hipDeviceProp_t"))
	assert.False(t, cgocall.IsCType(named("_Ctype_hipDeviceProp_tR0700"), "hipDeviceProp_t"))
}
