package fuzzcheck

import "sort"

// stubs are the standard packages the generated code imports, reduced to the
// declarations it uses. They are type-checked from source in the program's
// own file set, so that type-checking costs milliseconds and needs neither
// GOROOT export data nor a build cache. The analyzers identify these
// functions by package path and name, as they do the real ones.
var stubs = map[string]string{
	"runtime/cgo": `package cgo

// Incomplete is cgo's type for C structs it cannot complete.
type Incomplete struct{ _ [0]byte }
`,
	"os": `package os

func Setenv(key, value string) error { return nil }
func Getenv(key string) string      { return "" }
func Exit(code int)                 {}
`,
	"strings": `package strings

func Contains(s, substr string) bool  { return false }
func HasSuffix(s, suffix string) bool { return false }
`,
	"log": `package log

func Fatal(v ...any) {}
`,
	"errors": `package errors

type e struct{ s string }

func (x *e) Error() string { return x.s }

func New(s string) error { return &e{s} }
`,
	"sync": `package sync

type WaitGroup struct{ n int }

func (w *WaitGroup) Add(n int) { w.n += n }
func (w *WaitGroup) Done()     { w.n-- }
func (w *WaitGroup) Wait()     {}
`,
	"testing": `package testing

type TB interface {
	Helper()
	Skip(args ...any)
	Fatal(args ...any)
}

type T struct{ name string }

func (t *T) Helper()            {}
func (t *T) Skip(args ...any)   {}
func (t *T) Fatal(args ...any)  {}
func (t *T) Run(name string, f func(t *T)) bool { return true }

type M struct{ n int }

func (m *M) Run() int { return m.n }
`,
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
