module github.com/hiplint/hiplint

go 1.26.8

require (
	github.com/stretchr/testify v1.12.1 // indirect
	golang.org/x/tools v0.52.0 // indirect
)
