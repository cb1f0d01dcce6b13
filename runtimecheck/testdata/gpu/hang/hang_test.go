package hang

import "testing"

func TestHang(t *testing.T) { LoadAndWait() }
