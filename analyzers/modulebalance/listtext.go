package modulebalance

import "fmt"

// ListText is the %v text of xs ("[0 1]"), or "" when xs is empty: a list
// part of a fact's String form that FactText leaves out when empty.
func listText[T any](xs []T) string {
	if len(xs) == 0 {
		return ""
	}
	return fmt.Sprint(xs)
}
