package graphfree

// Reachable returns the nodes reachable from start in a graph of nodes
// numbered from 0, following succs (start itself only if a cycle leads
// back to it). known is false when succs says a node's successors are not
// known (ok false): then what is reachable is not known either. It works
// iteratively, each node once.
func reachable(start int, succs func(n int) ([]int, bool)) (seen map[int]bool, known bool) {
	seen = map[int]bool{}
	work := []int{start}
	for len(work) > 0 {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		next, ok := succs(n)
		if !ok {
			return nil, false
		}
		for _, m := range next {
			if !seen[m] {
				seen[m] = true
				work = append(work, m)
			}
		}
	}
	return seen, true
}
