// Package testmainlate's TestMain sets HSA_XNACK after the runtime started.
package testmainlate
