package flow

// ValueProblem fills in p's Clone and Equal for a state that is a
// comparable value: a copy is a clone, and == is equality. The rest of p
// is kept as it is.
func ValueProblem[S comparable](p Problem[S]) Problem[S] {
	p.Clone = func(s S) S { return s }
	p.Equal = func(a, b S) bool { return a == b }
	return p
}
