package modforms

import "testing"

//matrix:gpu call-method-value modules hazard
func TestMethodValueAfter(t *testing.T) {
	if err := MethodValueAfter(); err != nil {
		t.Fatalf("lookup after the unload: %v", err)
	}
}

//matrix:gpu call-method-value modules twin
func TestMethodValueBefore(t *testing.T) {
	if err := MethodValueBefore(); err != nil {
		t.Fatal(err)
	}
}

//matrix:gpu call-method-expr modules hazard
func TestMethodExprAfter(t *testing.T) {
	if err := MethodExprAfter(); err != nil {
		t.Fatalf("lookup after the unload: %v", err)
	}
}

//matrix:gpu call-method-expr modules twin
func TestMethodExprBefore(t *testing.T) {
	if err := MethodExprBefore(); err != nil {
		t.Fatal(err)
	}
}

//matrix:gpu call-promoted-pointer modules hazard
func TestPromotedAfter(t *testing.T) {
	if err := PromotedAfter(); err != nil {
		t.Fatalf("lookup after the unload: %v", err)
	}
}

//matrix:gpu call-promoted-pointer modules twin
func TestPromotedBefore(t *testing.T) {
	if err := PromotedBefore(); err != nil {
		t.Fatal(err)
	}
}

//matrix:gpu call-iface-local modules hazard
func TestInterfaceAfter(t *testing.T) {
	if err := InterfaceAfter(); err != nil {
		t.Fatalf("lookup after the unload: %v", err)
	}
}

//matrix:gpu call-iface-local modules twin
func TestInterfaceBefore(t *testing.T) {
	if err := InterfaceBefore(); err != nil {
		t.Fatal(err)
	}
}

//matrix:gpu closure-stored modules hazard
func TestStoredClosureAfter(t *testing.T) {
	if err := StoredClosureAfter(); err != nil {
		t.Fatalf("lookup after the unload: %v", err)
	}
}

//matrix:gpu closure-stored modules twin
func TestStoredClosureBefore(t *testing.T) {
	if err := StoredClosureBefore(); err != nil {
		t.Fatal(err)
	}
}

//matrix:gpu range-slice modules hazard
func TestRangeAfter(t *testing.T) {
	if err := RangeAfter(); err != nil {
		t.Fatalf("lookup after the unload: %v", err)
	}
}

//matrix:gpu range-slice modules twin
func TestRangeBefore(t *testing.T) {
	if err := RangeBefore(); err != nil {
		t.Fatal(err)
	}
}

//matrix:gpu conc-waitgroup modules hazard
func TestGoroutineAfter(t *testing.T) {
	if err := GoroutineAfter(); err != nil {
		t.Fatalf("lookup after the unload: %v", err)
	}
}

//matrix:gpu conc-waitgroup modules twin
func TestGoroutineBefore(t *testing.T) {
	if err := GoroutineBefore(); err != nil {
		t.Fatal(err)
	}
}
