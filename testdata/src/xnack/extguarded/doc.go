// Package extguarded's TestMain, in its internal test files, sets
// HSA_XNACK before any HIP call; its external tests (package
// extguarded_test) run in the same binary, under that TestMain.
package extguarded
