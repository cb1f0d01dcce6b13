// Package broken does not type-check: hiplint reports the error and goes on
// with the other packages.
package broken

// Size returns a value of the wrong type.
func Size() int {
	return "not an int"
}
