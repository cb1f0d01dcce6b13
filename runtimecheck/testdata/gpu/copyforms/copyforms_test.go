package copyforms

import "testing"

//matrix:gpu call-method-value copysync hazard
func TestMethodValueStale(t *testing.T) {
	if got := MethodValueStale(); got != 1 {
		t.Errorf("read %d from the copy's destination, want 1: the copy had not landed", got)
	}
}

//matrix:gpu call-method-value copysync twin
func TestMethodValueSynced(t *testing.T) {
	if got := MethodValueSynced(); got != 1 {
		t.Errorf("read %d, want 1", got)
	}
}

//matrix:gpu call-method-expr copysync hazard
func TestMethodExprStale(t *testing.T) {
	if got := MethodExprStale(); got != 1 {
		t.Errorf("read %d from the copy's destination, want 1: the copy had not landed", got)
	}
}

//matrix:gpu call-method-expr copysync twin
func TestMethodExprSynced(t *testing.T) {
	if got := MethodExprSynced(); got != 1 {
		t.Errorf("read %d, want 1", got)
	}
}

//matrix:gpu call-promoted-pointer copysync hazard
func TestPromotedStale(t *testing.T) {
	if got := PromotedStale(); got != 1 {
		t.Errorf("read %d from the copy's destination, want 1: the copy had not landed", got)
	}
}

//matrix:gpu call-promoted-pointer copysync twin
func TestPromotedSynced(t *testing.T) {
	if got := PromotedSynced(); got != 1 {
		t.Errorf("read %d, want 1", got)
	}
}

//matrix:gpu call-iface-local copysync hazard
func TestInterfaceStale(t *testing.T) {
	if got := InterfaceStale(); got != 1 {
		t.Errorf("read %d from the copy's destination, want 1: the copy had not landed", got)
	}
}

//matrix:gpu call-iface-local copysync twin
func TestInterfaceSynced(t *testing.T) {
	if got := InterfaceSynced(); got != 1 {
		t.Errorf("read %d, want 1", got)
	}
}

//matrix:gpu call-func-field copysync hazard
func TestFuncFieldStale(t *testing.T) {
	if got := FuncFieldStale(); got != 1 {
		t.Errorf("read %d from the copy's destination, want 1: the copy had not landed", got)
	}
}

//matrix:gpu call-func-field copysync twin
func TestFuncFieldSynced(t *testing.T) {
	if got := FuncFieldSynced(); got != 1 {
		t.Errorf("read %d, want 1", got)
	}
}

//matrix:gpu call-options copysync hazard
func TestOptionsStale(t *testing.T) {
	if got := OptionsStale(); got != 1 {
		t.Errorf("read %d from the copy's destination, want 1: the copy had not landed", got)
	}
}

//matrix:gpu call-options copysync twin
func TestOptionsSynced(t *testing.T) {
	if got := OptionsSynced(); got != 1 {
		t.Errorf("read %d, want 1", got)
	}
}

//matrix:gpu call-generic-func copysync hazard
func TestGenericStale(t *testing.T) {
	if got := GenericStale(); got != 1 {
		t.Errorf("read %d from the copy's destination, want 1: the copy had not landed", got)
	}
}

//matrix:gpu call-generic-func copysync twin
func TestGenericSynced(t *testing.T) {
	if got := GenericSynced(); got != 1 {
		t.Errorf("read %d, want 1", got)
	}
}

//matrix:gpu closure-stored copysync hazard
func TestStoredClosureStale(t *testing.T) {
	if got := StoredClosureStale(); got != 1 {
		t.Errorf("read %d from the copy's destination, want 1: the copy had not landed", got)
	}
}

//matrix:gpu closure-stored copysync twin
func TestStoredClosureSynced(t *testing.T) {
	if got := StoredClosureSynced(); got != 1 {
		t.Errorf("read %d, want 1", got)
	}
}

//matrix:gpu select-branch copysync hazard
func TestSelectBranchStale(t *testing.T) {
	if got := SelectBranchStale(); got != 1 {
		t.Errorf("read %d from the copy's destination, want 1: the copy had not landed", got)
	}
}

//matrix:gpu select-branch copysync twin
func TestSelectBranchSynced(t *testing.T) {
	if got := SelectBranchSynced(); got != 1 {
		t.Errorf("read %d, want 1", got)
	}
}
