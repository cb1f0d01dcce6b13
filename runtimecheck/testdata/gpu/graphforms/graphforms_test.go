package graphforms

import "testing"

//matrix:gpu call-method-value graphfree hazard
func TestMethodValueDevice(t *testing.T) {
	if err := MethodValueDevice(); err != nil {
		t.Fatalf("a free node for memory the graph did not allocate: %v", err)
	}
}

//matrix:gpu call-method-value graphfree twin
func TestMethodValueGraph(t *testing.T) {
	if err := MethodValueGraph(); err != nil {
		t.Fatal(err)
	}
}

//matrix:gpu call-method-expr graphfree hazard
func TestMethodExprDevice(t *testing.T) {
	if err := MethodExprDevice(); err != nil {
		t.Fatalf("a free node for memory the graph did not allocate: %v", err)
	}
}

//matrix:gpu call-method-expr graphfree twin
func TestMethodExprGraph(t *testing.T) {
	if err := MethodExprGraph(); err != nil {
		t.Fatal(err)
	}
}

//matrix:gpu call-promoted-pointer graphfree hazard
func TestPromotedDevice(t *testing.T) {
	if err := PromotedDevice(); err != nil {
		t.Fatalf("a free node for memory the graph did not allocate: %v", err)
	}
}

//matrix:gpu call-promoted-pointer graphfree twin
func TestPromotedGraph(t *testing.T) {
	if err := PromotedGraph(); err != nil {
		t.Fatal(err)
	}
}

//matrix:gpu call-iface-local graphfree hazard
func TestInterfaceDevice(t *testing.T) {
	if err := InterfaceDevice(); err != nil {
		t.Fatalf("a free node for memory the graph did not allocate: %v", err)
	}
}

//matrix:gpu call-iface-local graphfree twin
func TestInterfaceGraph(t *testing.T) {
	if err := InterfaceGraph(); err != nil {
		t.Fatal(err)
	}
}

//matrix:gpu call-generic-func graphfree hazard
func TestGenericDevice(t *testing.T) {
	if err := GenericDevice(); err != nil {
		t.Fatalf("a free node for memory the graph did not allocate: %v", err)
	}
}

//matrix:gpu call-generic-func graphfree twin
func TestGenericGraph(t *testing.T) {
	if err := GenericGraph(); err != nil {
		t.Fatal(err)
	}
}

//matrix:gpu select-branch graphfree hazard
func TestSelectDevice(t *testing.T) {
	if err := SelectDevice(); err != nil {
		t.Fatalf("a free node for memory the graph did not allocate: %v", err)
	}
}

//matrix:gpu select-branch graphfree twin
func TestSelectGraph(t *testing.T) {
	if err := SelectGraph(); err != nil {
		t.Fatal(err)
	}
}
