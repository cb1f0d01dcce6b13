// Package gexecapp builds graphs with gexec.
package gexecapp

import "graphfree/gexec"

// Residual runs two kernels over the scratch, the second after the first,
// and frees after the first only.
func Residual(b *gexec.Builder) error {
	s, err := b.Alloc()
	if err != nil {
		return err
	}
	k1, err := b.Kernel(b.ScratchPtr(s), s.Node)
	if err != nil {
		return err
	}
	if _, err := b.Kernel(b.ScratchPtr(s), k1); err != nil {
		return err
	}
	return b.Free(b.ScratchPtr(s), k1) // want `does not depend on`
}

// ResidualOrdered frees after both.
func ResidualOrdered(b *gexec.Builder) error {
	s, err := b.Alloc()
	if err != nil {
		return err
	}
	k1, err := b.Kernel(b.ScratchPtr(s), s.Node)
	if err != nil {
		return err
	}
	k2, err := b.Kernel(b.ScratchPtr(s), s.Node)
	if err != nil {
		return err
	}
	return b.Free(b.ScratchPtr(s), k1, k2)
}

// Drop frees the builder's weights in the graph.
func Drop(b *gexec.Builder) error {
	return b.Free(b.Weights()) // want `device memory from hipMalloc`
}
