// Test helpers of the engine pieces that moved here from internal/flow
// (issue 31), shared with the other analyzers through internal/testenv.
package modulebalance

import "github.com/hiplint/hiplint/internal/testenv"

var (
	fakePass = testenv.FakePass
	check    = testenv.TypeCheck
)
