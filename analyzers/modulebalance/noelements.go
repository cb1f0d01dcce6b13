package modulebalance

import "go/ast"

// NoElements is a Locator's Index that names no element: an element of a
// slice, array or map is then no location, only variables and their fields
// are.
func noElements(*ast.IndexExpr) (string, bool) { return "", false }
