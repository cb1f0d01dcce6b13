package flow

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestListText(t *testing.T) {
	assert.Equal(t, "[0 -1]", ListText([]int{0, -1}))
	assert.Equal(t, "", ListText([]int{}))
	assert.Equal(t, "", ListText[int](nil))
	assert.Equal(t, "unloads[0] idempotent[1]", FactText(" ", "unloads%s", "[0]", "idempotent%s", ListText([]int{1})))
	assert.Equal(t, "unloads[0]", FactText(" ", "unloads%s", "[0]", "idempotent%s", ListText([]int(nil))))
}
