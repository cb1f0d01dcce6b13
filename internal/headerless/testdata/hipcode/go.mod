module example.com/hipcode

go 1.26
