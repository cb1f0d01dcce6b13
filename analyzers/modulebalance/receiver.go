package modulebalance

import (
	"fmt"

	"github.com/hiplint/hiplint/internal/flow"
)

// LoadsInto is the fact that a function loads a module into what the listed
// parameters point to (-1 is the receiver: `C.hipModuleLoad(&m.h, path)` in
// `func (m *Module) Load(path string) error`). The obligation to unload moves
// to the caller, whose variable now holds a module; Status is the result that
// says whether the load succeeded (-1 when none). Adds lists those of Params
// that the function adds a module to without replacing what they hold: it
// appends the module to a slice field or stores it in a map field
// (`p.mods = append(p.mods, m)` in `func (p *pool) add(img string) error`).
// The caller's variable then owns every module added so far, and a failed
// call leaves those loaded.
type LoadsInto struct {
	Params []int
	Status int
	Adds   []int
}

func (*LoadsInto) AFact() {}
func (f *LoadsInto) String() string {
	params := fmt.Sprintf("%v(status=%d)", f.Params, f.Status)
	return flow.FactText(" ", "loadsInto%s", params, "adds%s", listText(f.Adds))
}
