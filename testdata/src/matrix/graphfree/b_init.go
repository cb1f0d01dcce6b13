package graphfree

var initGraph = &Graph{}

//matrix:gap order-init: memory another file's init allocated into a package variable has no known provenance
func freeInitBuf(dep node) {
	initGraph.Free(dep, initBuf)
}

//matrix:twin order-init
func freeInitGraph() {
	a, p, err := initGraph.Alloc(n)
	if err == nil {
		initGraph.Free(a, p)
	}
}
