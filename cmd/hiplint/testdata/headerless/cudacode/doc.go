// Package cudacode is CUDA driver code behind a build tag.
package cudacode
