package modules

// #include <hip/hip_runtime_api.h>
import "C"

import "io"

// A module closed through io.Closer, the interface real code keeps modules
// behind: the local holds md, so closing it closes md.

//matrix:hazard call-iface-local
func closerThenLookup(path, name *C.char) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	var c io.Closer = md
	c.Close()
	_, err = md.Function(name) // want `uses module md after it was unloaded`
	return err
}

//matrix:twin call-iface-local
func closerDeferred(path, name *C.char) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	var c io.Closer = md
	defer c.Close()
	_, err = md.Function(name)
	return err
}

// closerOfOld closes the module the local held before md was reassigned:
// the lookup is in the module loaded second, still loaded.
func closerOfOld(path, name *C.char) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	var c io.Closer = md
	md, err = Load(path)
	if err != nil {
		c.Close()
		return err
	}
	c.Close()
	defer md.Close()
	_, err = md.Function(name)
	return err
}
