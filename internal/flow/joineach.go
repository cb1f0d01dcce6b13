package flow

import "strings"

// JoinEach writes each of xs with str and joins them with sep: the lists
// in facts' String methods.
func JoinEach[T any](xs []T, sep string, str func(T) string) string {
	var b strings.Builder
	for i, x := range xs {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(str(x))
	}
	return b.String()
}
