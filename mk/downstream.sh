#!/bin/sh
# mk/downstream.sh: make downstream. Runs the README's recipe in a copy of
# examples/downstream outside this tree, with no headers.lock of its own
# (cugen carries it), as its own CI would, across an upgrade: go generate
# (gen.go: go tool cugen gen -set 12.4 -lib cu,cudart,nvrtc -out cuda,
# with the Go layer), the check, vet and tests; then gen.go's -set 12.4
# edited to 12.5: the check fails printing the API changes, go generate
# updates the bindings, and the check, vet and tests pass. Its go.mod's
# replace points at this checkout. Beside gen.go, mylib.go's second line
# binds a library of the module's own (cmd/cugen/testdata/mylib, built
# with gcc) into the same ./cuda: gen -desc -set 12.4 -with mylib (docs/
# generating.md, "Beside cugen's libraries"). It writes only cuda/mylib,
# never rewriting cu or cudart, and its check passes with gen.go's, before
# and after the upgrade.
set -eu
GO=${GO:-go}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM # the EXIT trap cleans up then too
log=$tmp/check.log
for f in $(git ls-files examples/downstream); do cp "$f" "$tmp/"; done
mkdir "$tmp/mylib"
cp cmd/cugen/testdata/mylib/mylib.h cmd/cugen/testdata/mylib/mylib.json "$tmp/mylib/"
${CC:-gcc} -shared -fPIC -O2 -o "$tmp/libmylib.so.1" cmd/cugen/testdata/mylib/mylib.c
export MYLIB_LIBRARY="$tmp/libmylib.so.1" # mylib's TestSymbolsResolve
checkout=$(pwd)
cd "$tmp"
test ! -e headers.lock
$GO mod edit -replace "github.com/cugen/cugen=$checkout"
desc='gen -desc mylib/mylib.json -set 12.4 -with mylib -out cuda'
printf 'package main\n\n//go:generate go tool cugen %s\n' "$desc" >mylib.go
check() { # fails with the first line's failure (set -e is off under if)
	$GO tool cugen gen -check -set "$1" -lib cu,cudart,nvrtc -out cuda &&
		$GO tool cugen $desc -check
}
$GO generate ./...
check 12.4
touch stamp # the -desc line again: cu and cudart are not rewritten
$GO generate -run 'cugen gen -desc' ./...
changed=$(find cuda/cu cuda/cudart -newer stamp)
test -z "$changed" || { echo "make downstream: the -desc line rewrote $changed" >&2; exit 1; }
test -f cuda/cuda/rtc.go || { echo "make downstream: go generate wrote no layer (cuda/cuda)" >&2; exit 1; }
$GO vet ./...
CGO_ENABLED=0 $GO test -count=1 ./...

echo "make downstream: gen.go upgraded to set 12.5; the check must fail"
sed -i 's/ -set 12\.4 / -set 12.5 /' gen.go
grep -q ' -set 12.5 ' gen.go
if check 12.5 >"$log" 2>&1; then cat "$log"; echo "make downstream: gen -check passed on stale bindings" >&2; exit 1; fi
cat "$log"
for want in 'cugen: package cu: API changes (api.txt): ' '  + func cuCtxCreate_v4(' 'cugen: stale cu/funcs.go' 'cugen: gen -check: cuda is stale: '; do
	grep -qF -- "$want" "$log" || { echo "make downstream: the failed check did not print '$want'" >&2; exit 1; }
done
$GO generate ./...
check 12.5
$GO vet ./...
CGO_ENABLED=0 $GO test -count=1 ./...
