#!/bin/sh
# build.sh OUTPUT builds launchexp (main.go) against a temporary worktree of
# this repository's HEAD with ffi-experiment.patch applied, with cgo and
# -checklinkname=0 for the patch's runtime.asmcgocall. Run OUTPUT on a GPU
# machine; BENCHMARKS.md has its results.
set -e
out=$(realpath -m "${1:?usage: build.sh OUTPUT}")
here=$(cd "$(dirname "$0")" && pwd)
repo=$(git -C "$here" rev-parse --show-toplevel)
tmp=$(mktemp -d)
trap 'git -C "$repo" worktree remove --force "$tmp/repo" 2>/dev/null; rm -rf "$tmp"' EXIT
git -C "$repo" worktree add -q --detach "$tmp/repo" HEAD
git -C "$tmp/repo" apply "$here/ffi-experiment.patch"
mkdir "$tmp/exp"
cp "$here/main.go" "$repo/go.sum" "$tmp/exp/"
cat > "$tmp/exp/go.mod" <<EOF
module launchexp

go 1.26

require github.com/cugen/cugen v0.0.0

replace github.com/cugen/cugen => $tmp/repo
EOF
cd "$tmp/exp"
go mod tidy
CGO_ENABLED=1 go build -ldflags=-checklinkname=0 -o "$out" .
