module example.com/missingimport

go 1.22
