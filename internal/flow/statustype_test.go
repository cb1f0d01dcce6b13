package flow

import (
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestIsStatus(t *testing.T) {
	errType := types.Universe.Lookup("error").Type()
	assert.True(t, IsStatus(errType))
	assert.True(t, IsStatus(nil))
	assert.True(t, IsStatus(types.Typ[types.Invalid]))
	assert.False(t, IsStatus(types.Typ[types.Int]))
	assert.False(t, IsStatus(types.NewPointer(types.Typ[types.Int])))
}
