package missingsdk

import "testing"

// The test variant of a tier-3 package gets no second note.
func TestNothing(t *testing.T) {}
