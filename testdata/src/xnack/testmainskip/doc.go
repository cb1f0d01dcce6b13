// Package testmainskip's TestMain runs the tests only where XNACK is on.
package testmainskip
