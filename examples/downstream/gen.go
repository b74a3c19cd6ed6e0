// Package main is a downstream module that generates its own CUDA bindings
// from the toolkit installed where it is built, exactly as a user would:
//
//	CUDA_HEADERS=/usr/local/cuda/include go generate ./...
//
// (go.mod names cugen as a tool: go get -tool github.com/cugen/cugen/cmd/cugen.)
// cugen writes ./cuda/cu and ./cuda/cudart (never touching files it did not
// generate, such as this one) with the same API rules, audit files and
// context-demo test as the packages cugen commits.
//
// Its CI checks the bindings against the toolkit it builds with, writing
// nothing:
//
//	go tool cugen gen -check -headers $CUDA_HEADERS -out cuda
//
// After a toolkit upgrade the check fails, printing what the new headers
// change in the API (against cuda/cu/api.txt and cuda/cudart/api.txt) and
// each generated file that would change; go generate updates them and the
// check passes again. cugen's make test runs exactly this, from the 12.4
// headers to 12.5 (make downstream).
package main

//go:generate go tool cugen gen -headers $CUDA_HEADERS -out cuda
