module example.com/gpu

go 1.26
