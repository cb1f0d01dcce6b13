package dptrain

import "sync"

// group runs functions in goroutines and collects the first error, in the
// style of golang.org/x/sync/errgroup.
type group struct {
	wg   sync.WaitGroup
	once sync.Once
	err  error
}

// Go runs f in a new goroutine.
func (g *group) Go(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil {
			g.once.Do(func() { g.err = err })
		}
	}()
}

// Wait waits for every goroutine and returns the first error.
func (g *group) Wait() error {
	g.wg.Wait()
	return g.err
}
