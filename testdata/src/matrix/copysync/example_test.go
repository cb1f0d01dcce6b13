package copysync

import "fmt"

//matrix:hazard order-example
func ExampleTransfer() {
	dst, _ := NewTensor(4)
	src, _ := NewTensor(4)
	Transfer(dst, src, WithLabel("example"))
	fmt.Println(dst.Values()[0]) // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by Transfer \(C.hipMemcpy\) is ordered`
	// Output: 0
}

//matrix:twin order-example
func ExampleTransfer_synchronized() { // want ExampleTransfer_synchronized:`synchronizes\(device\)`
	dst, _ := NewTensor(4)
	src, _ := NewTensor(4)
	Transfer(dst, src, WithLabel("example"))
	Synchronize()
	fmt.Println(dst.Values()[0])
	// Output: 0
}
