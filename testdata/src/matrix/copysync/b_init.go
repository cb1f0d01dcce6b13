package copysync

var embeddingHead, vocabHead float32

//matrix:hazard order-init
func init() {
	embeddingHead = embeddings.Values()[0] // want `this index expression reads embeddings.ptr on the host before the device-to-device copy into it by init \(C.hipMemcpy\) is ordered`
}

//matrix:twin order-init
func init() {
	vocabHead = vocab.Values()[0]
}
