package fuzzcheck

// typeShapes writes the Go type shapes that recursions over types,
// interface implementations and summaries must survive (issue 16: a struct
// embedding an interface sent three analyzers into unbounded recursion, and
// the generator never wrote one): interfaces embedding interfaces and
// mentioning themselves, structs embedding an interface directly and behind a
// pointer, recursive and mutually recursive types, a generic type with
// methods, function-typed fields, and methods that call themselves through a
// field. Which methods reach the runtime is the input's choice.
func (g *pkgGen) typeShapes() {
	g.p("type Runtime interface {")
	g.p("\tFree(p unsafe.Pointer)")
	g.p("\tSync()")
	g.p("}")
	g.p("")
	g.p("type Loader interface {")
	g.p("\tRuntime")
	g.p("\tLoad(m *_Ctype_hipModule_t)")
	g.p("\tSelf() Loader")
	g.p("}")
	g.p("")
	g.p("type Wrapped struct{ Runtime }")
	g.p("type WrappedPtr struct{ *Wrapped }")
	g.p("type Cyc struct {")
	g.p("\tnext *Cyc")
	g.p("\tpeer *Peer")
	g.p("\tRuntime")
	g.p("}")
	g.p("type Peer struct {")
	g.p("\tcyc *Cyc")
	g.p("\tfn  func(unsafe.Pointer)")
	g.p("}")
	g.p("type Box[T any] struct {")
	g.p("\tv    T")
	g.p("\tfree func(unsafe.Pointer)")
	g.p("}")
	g.p("type Impl struct{ m _Ctype_hipModule_t }")
	g.p("")

	g.p("func (b *Box[T]) Free(p unsafe.Pointer) {")
	g.indent++
	switch g.r.n(3) {
	case 0:
		g.p("%s", g.call("hipFree", typed("p")))
	case 1:
		g.p("if b.free != nil {")
		g.p("\tb.free(p)")
		g.p("}")
	}
	g.indent--
	g.p("}")
	g.p("")
	g.p("func (b *Box[T]) Sync() {")
	if g.r.n(2) == 0 {
		g.indent++
		g.p("%s", g.call("hipDeviceSynchronize"))
		g.indent--
	}
	g.p("}")
	g.p("")
	g.p("func (x Impl) Free(p unsafe.Pointer) {")
	g.indent++
	switch g.r.n(3) {
	case 0:
		g.p("%s", g.call("hipFree", typed("p")))
	case 1:
		g.p("%s", g.call("hipMemcpy", typed("p"), typed("gPtr"), untyped("64"), untyped("_Ciconst_hipMemcpyDeviceToDevice")))
	}
	g.indent--
	g.p("}")
	g.p("")
	g.p("func (x Impl) Sync() {")
	if g.r.n(2) == 0 {
		g.indent++
		g.p("%s", g.call("hipStreamSynchronize", untyped("nil")))
		g.indent--
	}
	g.p("}")
	g.p("")
	g.p("func (x *Impl) Load(m *_Ctype_hipModule_t) {")
	g.indent++
	if g.r.n(2) == 0 {
		g.p("%s", g.call("hipModuleLoad", typed("m"), untyped("nil")))
	} else {
		g.p("%s", g.call("hipModuleLoad", addr("x.m"), untyped("nil")))
	}
	g.indent--
	g.p("}")
	g.p("")
	g.p("func (x *Impl) Self() Loader { return x }")
	g.p("")
	// A method that calls itself through the recursive field and the
	// embedded interface: summaries of Free depend on themselves.
	g.p("func (c *Cyc) Free(p unsafe.Pointer) {")
	g.p("\tif c.next != nil {")
	g.p("\t\tc.next.Free(p)")
	g.p("\t}")
	g.p("\tif c.peer != nil && c.peer.cyc != nil {")
	g.p("\t\tc.peer.cyc.Free(p)")
	g.p("\t}")
	g.p("\tif c.Runtime != nil {")
	g.p("\t\tc.Runtime.Free(p)")
	g.p("\t}")
	g.p("}")
	g.p("")
	g.p("func generic[T Runtime](x T, p unsafe.Pointer) { x.Free(p) }")
	g.p("")
	g.p("var (")
	g.p("\t_ Runtime = Wrapped{}")
	g.p("\t_ Runtime = WrappedPtr{}")
	g.p("\t_ Runtime = &Cyc{}")
	g.p("\t_ Runtime = (*Box[int])(nil)")
	g.p("\t_ Runtime = Impl{}")
	g.p("\t_ Loader  = (*Impl)(nil)")
	g.p("\t_ Loader  = struct{ Loader }{}")
	g.p(")")
	g.p("")
}

// shapedCall writes a block that calls through the shapes typeShapes
// declares: an interface value of each implementation, a method value, a
// method expression, a generic function, a function-typed field.
func (g *pkgGen) shapedCall(s scope) {
	r := g.r
	p := r.pick("p0", "p1", "p2", "pa", "gPtr")
	g.p("{")
	g.indent++
	g.p("var rt Runtime = %s", r.pick("Wrapped{Impl{}}", "&Box[int]{}", "Impl{}",
		"WrappedPtr{&Wrapped{&Box[int]{}}}", "&Cyc{Runtime: Impl{}}", "Wrapped{}", "&Cyc{next: &Cyc{}}"))
	switch r.n(7) {
	case 0:
		g.p("rt.Free(%s)", p)
	case 1:
		g.p("free := rt.Free")
		g.p("free(%s)", p)
	case 2:
		g.p("Runtime.Free(rt, %s)", p)
	case 3:
		g.p("generic(rt, %s)", p)
	case 4:
		g.p("(&Peer{fn: rt.Free}).fn(%s)", p)
	case 5:
		g.p("rt.Sync()")
	case 6:
		g.p("var l Loader = %s", r.pick("&Impl{}", "struct{ Loader }{&Impl{}}"))
		g.p("l.Load(&%s)", g.modVar(s))
		g.p("l.Self().Sync()")
	}
	g.p("_ = rt")
	g.indent--
	g.p("}")
}
