package copysync

// Files initialize in name order: a_init.go's init functions run before
// b_init.go's.

var (
	embeddings, embeddingsStaged *Tensor
	vocab, vocabStaged           *Tensor
)

func init() { // want init:`synchronizes\(device\)`
	vocab, _ = NewTensor(256)
	vocabStaged, _ = NewTensor(256)
	copyTensor(vocab, vocabStaged)
	Synchronize()
}

func init() { // want init:`copiesInto\(hipMemcpy dst=g\.embeddings\.ptr\)`
	embeddings, _ = NewTensor(256)
	embeddingsStaged, _ = NewTensor(256)
	copyTensor(embeddings, embeddingsStaged) // left in flight
}
