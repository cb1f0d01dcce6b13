package xnack

// Package initialization runs the init functions of a_init.go before those
// of b_init.go (files in name order), all before any test.
//
//matrix:gap order-init: an init of a library package is no entry point of the XNACK check (only package main's and the test binary's TestMain are), though every program and test binary that imports the package runs it
func init() { Launch(HostBuf(64)) }
