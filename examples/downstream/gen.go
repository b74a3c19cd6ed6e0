// Package main is a downstream module that generates its own CUDA bindings
// from the toolkit installed where it is built, exactly as a user would:
//
//	CUDA_HEADERS=/usr/local/cuda/include go generate ./...
//
// (go.mod names cugen as a tool: go get -tool github.com/cugen/cugen/cmd/cugen.)
// cugen writes ./cuda/cu and ./cuda/cudart (never touching files it did not
// generate, such as this one) with the same API rules, audit files and
// context-demo test as the packages cugen commits.
package main

//go:generate go tool cugen gen -headers $CUDA_HEADERS -out cuda
