package modulebalance

import (
	"testing"

	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestListText(t *testing.T) {
	assert.Equal(t, "[0 -1]", listText([]int{0, -1}))
	assert.Equal(t, "", listText([]int{}))
	assert.Equal(t, "", listText[int](nil))
	assert.Equal(t, "unloads[0] idempotent[1]", flow.FactText(" ", "unloads%s", "[0]", "idempotent%s", listText([]int{1})))
	assert.Equal(t, "unloads[0]", flow.FactText(" ", "unloads%s", "[0]", "idempotent%s", listText([]int(nil))))
}
