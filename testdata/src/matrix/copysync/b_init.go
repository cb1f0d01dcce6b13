package copysync

var embeddingHead, vocabHead float32

//matrix:hazard order-init
func init() {
	embeddingHead = embeddings.Values()[0] // want `this index expression reads embeddings.ptr on the host before the device-to-device copy into it by init in a_init.go \(C.hipMemcpy\) is ordered`
}

//matrix:twin order-init
func init() {
	vocabHead = vocab.Values()[0]
}

var embeddingTail float32

// An init that waits for the device before it reads what an earlier one
// copied.
//
//matrix:twin order-init
func init() { // want init:`synchronizes\(device\)`
	Synchronize()
	embeddingTail = embeddings.Values()[255]
}
