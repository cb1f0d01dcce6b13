package copysync

var embeddingHead, vocabHead float32

//matrix:gap order-init: init functions are analyzed one at a time: a copy an earlier file's init leaves in flight is not carried into the next init
func init() {
	embeddingHead = embeddings.Values()[0]
}

//matrix:twin order-init
func init() {
	vocabHead = vocab.Values()[0]
}
