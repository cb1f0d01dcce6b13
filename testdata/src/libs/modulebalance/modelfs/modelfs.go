// Package modelfs serves models from a directory through modelreg.
package modelfs

import (
	"os"
	"path/filepath"
	"unsafe"

	"libs/modulebalance/modelreg"
)

// Dir reads NAME.hsaco files from a directory.
type Dir string

// Image implements modelreg.Source.
func (d Dir) Image(name string) ([]byte, error) {
	return os.ReadFile(filepath.Join(string(d), name+".hsaco"))
}

// Infer runs one request on the current version of a model.
func Infer(r *modelreg.Registry, name string, in, out unsafe.Pointer, n int) error {
	md, err := r.Acquire(name)
	if err != nil {
		return err
	}
	defer md.Release()
	return md.Forward(in, out, n)
}

// InferReleased drops its reference before it runs the model. Hazard: a
// reload in between retires the model, and this Release unloads it.
func InferReleased(r *modelreg.Registry, name string, in, out unsafe.Pointer, n int) error {
	md, err := r.Acquire(name)
	if err != nil {
		return err
	}
	md.Release()
	return md.Forward(in, out, n) // want `Forward uses module md after it was unloaded`
}

// Serve loads the models, runs one request on each and closes the registry.
func Serve(dir string, names []string, in, out unsafe.Pointer, n int) error {
	r := modelreg.New(Dir(dir), modelreg.WithMaxBytes(64<<20))
	defer r.Close()
	for _, name := range names {
		if err := r.Load(name); err != nil {
			return err
		}
	}
	for _, name := range names {
		if err := Infer(r, name, in, out, n); err != nil {
			return err
		}
	}
	return nil
}
