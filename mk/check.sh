#!/bin/sh
# mk/check.sh: make check. Checks the carried IRs against the pinned
# headers (cugen ir -carried -check), regenerates every committed package
# into a temporary directory and fails listing the stale ones; generates the
# BUILD_SETS (not committed) and builds and vets their driver, runtime and
# layer packages; then gofmt, and vet of the whole tree for each platform
# the generated packages are for. mk/check.sh generated does the first
# part, mk/check.sh vet the second (make test runs it while it fetches).
# Settings come from the Makefile: GO, GEN_SETS, BUILD_SETS, IR13,
# WHEEL_LIBS.
#
# The huge generated packages (NPP's are 18 MB of Go a major) are compiled
# once a platform: go vet type-checks every package and its tests and
# compiles what they import, so a go build of the same platform adds only
# code generation. What that skips is covered elsewhere: linux/amd64's
# code by go test ./...; the assembly (ffi/ffiimpl, the only .s files) by
# make test-arm64 and test-windows, which build and run ffi/... for arm64
# and windows.
set -eu
GO=${GO:-go}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" generated/_check' EXIT
trap 'exit 1' HUP INT TERM # the EXIT trap cleans up then too
mod=github.com/cugen/cugen

generated() {
	$GO build -o "$tmp/cugen" ./cmd/cugen
	cugen=$tmp/cugen
	stale() { echo "make check: $1 is stale: run make generate$2" >&2; exit 1; }
	# the IRs cugen carries (gen -set's offline source) against the
	# pinned headers: the Debian sets' are fetched into the cache where
	# missing (as make test does); a toolkit's or a wheel's set is checked
	# where its headers are here (CUDA_HOME, ...) and named otherwise
	"$cugen" ir -carried -check
	for set in $GEN_SETS; do
		m=${set%%.*}
		"$cugen" gen -set "$set" -out "$tmp/cuda$m" -importpath "$mod/generated/cuda$m" >/dev/null
		diff -r -q -x .cugen.lock -x cuda -x cudnn -x cusparselt -x ir.json.gz -x 'ir-*.json.gz' "generated/cuda$m" "$tmp/cuda$m" || stale "generated/cuda$m" ""
	done
	"$cugen" gen -ir "$IR13" -out "$tmp/cuda13" -importpath "$mod/generated/cuda13" >/dev/null
	diff -r -q -x .cugen.lock -x cuda -x cudnn -x cusparselt -x ir.json.gz -x 'ir-*.json.gz' generated/cuda13 "$tmp/cuda13" || stale generated/cuda13 " (from $IR13)"
	for ml in $WHEEL_LIBS; do
		m=${ml%%:*} lib=${ml#*:}
		"$cugen" gen -ir "generated/cuda$m/ir-$lib.json.gz" -lib "$lib" -out "$tmp/w$m$lib" -importpath "$mod/generated/cuda$m" -layer=false >/dev/null
		diff -r -q "generated/cuda$m/$lib" "$tmp/w$m$lib/$lib" || stale "generated/cuda$m/$lib" " (from generated/cuda$m/ir-$lib.json.gz)"
	done
	echo "make check: generated/ is up to date"
	# cuda/sys: the major-neutral packages, from the committed generated ones
	"$cugen" sys -check

	for set in $BUILD_SETS; do
		d=generated/_check/cuda$(echo "$set" | tr . _)
		"$cugen" gen -set "$set" -out "$d" -importpath "$mod/$d"
		pkgs="./$d/cu ./$d/cudart"
		if [ -d "$d/cuda" ]; then pkgs="$pkgs ./$d/cuda/..."; fi
		$GO vet $pkgs
		GOARCH=arm64 $GO vet $pkgs
	done
	rm -rf generated/_check
}

vet() {
	files=$(gofmt -l $(git ls-files '*.go'))
	if [ -n "$files" ]; then echo "$files"; echo "make check: gofmt" >&2; exit 1; fi

	# linux/amd64 and linux/arm64, the generated packages' platforms (go vet
	# replaces CGO_ENABLED=0 GOARCH=arm64 go build ./..., see above).
	$GO vet ./...
	GOARCH=arm64 $GO vet ./...
	# The Go API's CUDA major is a build tag: what the API, its examples
	# and the stand-in test use must vet under -tags cuda12 too (issue 38).
	$GO vet -tags cuda12 ./cuda/... ./examples/... ./cugentest/...
	# The generator runs wherever Go does (go generate on a Mac).
	GOOS=darwin GOARCH=arm64 $GO build -o /dev/null ./cmd/cugen
	# windows/amd64 (issue 31): every package vets, tests included (tests
	# of Linux-only syscalls carry build constraints: issue 37).
	GOOS=windows GOARCH=amd64 $GO vet ./...
}

case ${1:-all} in
generated) generated ;;
vet) vet ;;
all) generated; vet ;;
*) echo "usage: mk/check.sh [generated|vet]" >&2; exit 2 ;;
esac
