package cgocall

import (
	"go/parser"
	"testing"
)

func TestUserText(t *testing.T) {
	for src, want := range map[string]string{
		"(_Cfunc_malloc)(n)":               "C.malloc(n)",
		"_Cfunc__CMalloc(n)":               "C.malloc(n)",
		"unsafe.Pointer(&buf[0])":          "unsafe.Pointer(&buf[0])",
		"(*_Ctype_float)(p)":               "(*C.float)(p)",
		"(_Ctype_int)(n)":                  "C.int(n)",
		"_Cmacro_ATTR + _Cvar_x + b.field": "C.ATTR + C.x + b.field",
	} {
		e, err := parser.ParseExpr(src)
		if err != nil {
			t.Fatal(err)
		}
		if got := UserText(e); got != want {
			t.Errorf("UserText(%s) = %q, want %q", src, got, want)
		}
	}
}
