#!/bin/sh
# mk/downstream.sh: make downstream. Runs the README's recipe in a copy of
# examples/downstream outside this tree, with no headers.lock of its own
# (cugen carries it), as its own CI would, across an upgrade: go generate
# (gen.go: go tool cugen gen -set 12.4 -lib cu,cudart,nvrtc -out cuda,
# with the Go layer), the check, vet and tests; then gen.go's -set 12.4
# edited to 12.5: the check fails printing the API changes, go generate
# updates the bindings, and the check, vet and tests pass. Its go.mod's
# replace points at this checkout. All of that runs offline: in a network
# namespace of its own (unshare -rn, where it works), with an empty
# CUGEN_CACHE and GOPROXY=off (Go's module cache is this machine's): gen
# -set emits from the IRs cugen carries and downloads nothing (issue 40).
# Then, beside gen.go, mylib.go's line binds a library of the module's own
# (cmd/cugen/testdata/mylib, built with gcc) into the same ./cuda: gen
# -desc -set 12.4 -with mylib (docs/generating.md, "Beside cugen's
# libraries"), which parses its header with the set's headers (cached, or
# fetched). It writes only cuda/mylib, never rewriting cu or cudart, and
# its check passes with gen.go's.
set -eu
GO=${GO:-go}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM # the EXIT trap cleans up then too
for f in $(git ls-files examples/downstream); do cp "$f" "$tmp/"; done
mkdir "$tmp/mylib"
cp cmd/cugen/testdata/mylib/mylib.h cmd/cugen/testdata/mylib/mylib.json "$tmp/mylib/"
${CC:-gcc} -shared -fPIC -O2 -o "$tmp/libmylib.so.1" cmd/cugen/testdata/mylib/mylib.c
export MYLIB_LIBRARY="$tmp/libmylib.so.1" # mylib's TestSymbolsResolve
checkout=$(pwd)
cd "$tmp"
test ! -e headers.lock
$GO mod edit -replace "github.com/cugen/cugen=$checkout"
mkdir "$tmp/emptycache"
cat >"$tmp/offline.sh" <<'OFFLINE'
set -eu
check() { $GO tool cugen gen -check -set "$1" -lib cu,cudart,nvrtc -out cuda; }
t0=$(date +%s)
$GO generate ./...
echo "make downstream: go generate from an empty cache: $(($(date +%s) - t0)) s (the go tool's build included)"
test -z "$(ls -A "$CUGEN_CACHE")" || { echo "make downstream: gen -set wrote into its cache: $(ls -A "$CUGEN_CACHE")" >&2; exit 1; }
check 12.4
test -f cuda/cuda/rtc.go || { echo "make downstream: go generate wrote no layer (cuda/cuda)" >&2; exit 1; }
$GO vet ./...
CGO_ENABLED=0 $GO test -count=1 ./...
echo "make downstream: gen.go upgraded to set 12.5; the check must fail"
sed -i 's/ -set 12\.4 / -set 12.5 /' gen.go
grep -q ' -set 12.5 ' gen.go
if check 12.5 >check.log 2>&1; then cat check.log; echo "make downstream: gen -check passed on stale bindings" >&2; exit 1; fi
cat check.log
for want in 'cugen: package cu: API changes (api.txt): ' '  + func cuCtxCreate_v4(' 'cugen: stale cu/funcs.go' 'cugen: gen -check: cuda is stale: '; do
	grep -qF -- "$want" check.log || { echo "make downstream: the failed check did not print '$want'" >&2; exit 1; }
done
rm check.log
$GO generate ./...
check 12.5
$GO vet ./...
CGO_ENABLED=0 $GO test -count=1 ./...
test -z "$(ls -A "$CUGEN_CACHE")" || { echo "make downstream: the upgrade wrote into the cache: $(ls -A "$CUGEN_CACHE")" >&2; exit 1; }
OFFLINE
export GO CUGEN_CACHE="$tmp/emptycache"
if out=$(unshare -rn sh -c 'ip link set lo up' 2>&1); then
	echo "make downstream: the recipe, in a network namespace of its own"
	GOPROXY=off GOFLAGS=-mod=mod unshare -rn sh -c 'ip link set lo up && exec sh "$0"' "$tmp/offline.sh"
else
	echo "make downstream: the recipe, with GOPROXY=off but this machine's network (unshare -rn: $out)"
	GOPROXY=off GOFLAGS=-mod=mod sh "$tmp/offline.sh"
fi
unset CUGEN_CACHE

# mylib's line beside gen.go's: it writes only cuda/mylib, never cu or
# cudart, and both checks pass.
desc='gen -desc mylib/mylib.json -set 12.4 -with mylib -out cuda'
printf 'package main\n\n//go:generate go tool cugen %s\n' "$desc" >mylib.go
touch stamp
$GO generate -run 'cugen gen -desc' ./...
changed=$(find cuda/cu cuda/cudart -newer stamp)
test -z "$changed" || { echo "make downstream: the -desc line rewrote $changed" >&2; exit 1; }
$GO tool cugen gen -check -set 12.5 -lib cu,cudart,nvrtc -out cuda
$GO tool cugen $desc -check
$GO generate ./...
$GO tool cugen gen -check -set 12.5 -lib cu,cudart,nvrtc -out cuda
$GO tool cugen $desc -check
$GO vet ./...
CGO_ENABLED=0 $GO test -count=1 ./...
echo "make downstream: ok"
