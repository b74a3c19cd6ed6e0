module example.com/downstream

go 1.26

require github.com/cugen/cugen v0.0.0

require (
	github.com/dave/jennifer v1.7.1 // indirect
	github.com/ebitengine/purego v0.11.3 // indirect
	github.com/remyoudompheng/bigfft v0.0.0-20230129092748-24d4a6f8daec // indirect
	modernc.org/cc/v4 v4.34.0 // indirect
	modernc.org/mathutil v1.7.1 // indirect
	modernc.org/opt v0.2.0 // indirect
	modernc.org/sortutil v1.2.1 // indirect
	modernc.org/strutil v1.2.1 // indirect
	modernc.org/token v1.1.0 // indirect
)

// The example uses this checkout of cugen (make downstream rewrites the path
// to the checkout's, absolute, in its copy of the module); a real module
// drops this line and requires a cugen release.
replace github.com/cugen/cugen => ../..

tool github.com/cugen/cugen/cmd/cugen
