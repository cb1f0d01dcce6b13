// Package twinuser builds graphs through the HIP and CUDA twins of one Go
// API without cgo of its own: the rules reach it through facts.
package twinuser

import (
	cuda "graphfree/twincuda"
	hip "graphfree/twinhip"
)

func hipDevice(g *hip.Graph) error {
	p, err := hip.Malloc(64)
	if err != nil {
		return err
	}
	return g.Free(p) // want `Free frees p, which is device memory from hipMalloc \(via Malloc\), not a graph allocation`
}

func hipGraph(g *hip.Graph) error {
	p, err := g.Alloc(64)
	if err != nil {
		return err
	}
	return g.Free(p)
}

func cudaDevice(g *cuda.Graph) error {
	p, err := cuda.Malloc(64)
	if err != nil {
		return err
	}
	return g.Free(p) // want `Free frees p, which is device memory from cudaMalloc \(via Malloc\), not a graph allocation: .*cudaGraphAddMemAllocNode.*cudaErrorInvalidValue`
}

func cudaGraph(g *cuda.Graph) error {
	p, err := g.Alloc(64)
	if err != nil {
		return err
	}
	return g.Free(p)
}

func cudaFreedTwice(g *cuda.Graph) {
	p, err := g.Alloc(64)
	if err != nil {
		return
	}
	g.Free(p)
	g.Free(p) // want `Free frees p, which Free already freed: .*cudaErrorInvalidValue`
}
