package flow

import (
	"fmt"
	"slices"
	"strings"
)

// FactText makes a fact's String form of the parts it holds: formatValues
// alternate a format (with one %s) and a value, each non-empty value is
// formatted by the format before it, empty ones are left out, and the parts
// are joined by sep. FactText(" ", "reads(%s)", "p0", "syncs(%s)", "") is
// "reads(p0)".
func FactText(sep string, formatValues ...string) string {
	var out []string
	for i := 0; i+1 < len(formatValues); i += 2 {
		if v := formatValues[i+1]; v != "" {
			out = append(out, fmt.Sprintf(formatValues[i], v))
		}
	}
	return strings.Join(out, sep)
}

// JoinText joins the String forms of xs (fmt.Sprint: Stringers and strings)
// by sep, leaving out the empty ones.
func JoinText[T any](xs []T, sep string) string {
	var out []string
	for _, x := range xs {
		if s := fmt.Sprint(x); s != "" {
			out = append(out, s)
		}
	}
	return strings.Join(out, sep)
}

// SortedByString sorts xs in place by their String form and drops the
// duplicates: a summary lists what it holds in one order, whatever order
// its function's paths found it in, so that equal summaries are equal
// values and print alike.
func SortedByString[T interface {
	comparable
	fmt.Stringer
}](xs []T) []T {
	slices.SortFunc(xs, func(a, b T) int { return strings.Compare(a.String(), b.String()) })
	return slices.Compact(xs)
}
