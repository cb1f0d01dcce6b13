package flow

import (
	"cmp"
	"strings"
)

// CompareRef orders Refs by parameter (the receiver first), then path: the
// order summaries keep their Refs in, so that equal summaries are equal
// values.
func CompareRef(a, b Ref) int {
	return cmp.Or(cmp.Compare(a.Param, b.Param), strings.Compare(a.Path, b.Path))
}
