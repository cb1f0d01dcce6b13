package graphfree

var initGraph = &Graph{}

//matrix:hazard order-init
func freeInitBuf(dep node) {
	initGraph.Free(dep, initBuf) // want `Free frees initBuf, which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
}

//matrix:twin order-init
func freeInitGraph() {
	a, p, err := initGraph.Alloc(n)
	if err == nil {
		initGraph.Free(a, p)
	}
}
