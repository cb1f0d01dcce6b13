package xnack

// Package initialization runs the init functions of a_init.go before those
// of b_init.go (files in name order), all before any test.
//
//matrix:hazard order-init
func init() { Launch(HostBuf(64)) } // want `init of package xnack \(it runs in every program and test that imports it\) reaches C.malloc memory`
