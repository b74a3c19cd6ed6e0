#!/bin/sh
# mk/gpu.sh: make gpu-build. Fills .gpu/ with everything a GPU machine
# without Go or a network needs to prove the tree there:
#
#	.gpu/tests.txt        NAME PKG MAJOR BENCH, one test binary a line
#	.gpu/bin/NAME.test.gz the test binaries (CGO_ENABLED=0, stripped, gzip)
#	.gpu/examples.txt     NAME MAJOR, one example a line (C reference: examples/NAME/c)
#	.gpu/bin/ex-NAME.gz   the examples (CGO_ENABLED=0 go build)
#	.gpu/lib/             Debian's libcudart.so.12 for the cuda12 packages
#	.gpu/commit           the commit (and whether the tree was dirty)
#	.gpu/run.sh           the runner (mk/gpu-run.sh); .gpu/report.py (mk/gpu-report.py)
#
# The tree itself travels too (run.sh runs each binary in its package's
# directory, as go test does, and builds the C references from examples/).
# Binaries are stripped and compressed so that the tree and .gpu/ stay
# under the 64 MiB a device run carries. Libraries that do not travel (too
# big): Debian's NVRTC 12 and nvJitLink 12 (115 MB); their tests skip
# there, as report.py expects. libcuda.so.1 is the driver's, never Debian's.
set -eu
GO=${GO:-go}
out=.gpu
rm -rf "$out"
mkdir -p "$out/bin" "$out/lib"

# NAME PKG MAJOR BENCH (BENCH: 1 for the binaries with GPU benchmarks)
cat >"$out/tests.txt" <<'LIST'
cudart12 generated/cuda12/cudart 12 0
layer12 generated/cuda12/cuda 12 1
e2e e2e 12 1
reliability reliability 12 0
cudart13 generated/cuda13/cudart 13 0
layer13 generated/cuda13/cuda 13 1
e2e13 e2e/e2e13 13 0
LIST
while read -r name pkg major bench; do
	echo "gpu-build: $name.test <- ./$pkg"
	CGO_ENABLED=0 $GO test -c -ldflags='-s -w' -o "$out/bin/$name.test" "./$pkg"
	gzip -9 "$out/bin/$name.test"
done <"$out/tests.txt"

: >"$out/examples.txt"
for d in examples/*/; do
	name=$(basename "$d")
	[ "$name" = downstream ] && continue # its own module (make downstream)
	grep -q '^package main$' "$d"*.go 2>/dev/null || continue
	echo "gpu-build: examples/$name"
	CGO_ENABLED=0 $GO build -ldflags='-s -w' -o "$out/bin/ex-$name" "./$d"
	gzip -9 "$out/bin/ex-$name"
	major=13
	grep -q 'generated/cuda12/' "$d"*.go && major=12
	echo "$name $major" >>"$out/examples.txt"
done

cudart=$($GO run ./cmd/cugen libs -lib libcudart12)
cp -L "$cudart/libcudart.so.12" "$out/lib/"

{
	echo "commit $(git rev-parse HEAD)"
	echo "date $(git log -1 --format=%cI)"
	echo "subject $(git log -1 --format=%s)"
	if [ -n "$(git status --porcelain --untracked-files=no)" ]; then echo "dirty yes (uncommitted changes)"; else echo "dirty no"; fi
	echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) with $($GO version)"
} >"$out/commit"
cp mk/gpu-run.sh "$out/run.sh"
cp mk/gpu-report.py "$out/report.py"
chmod +x "$out/run.sh" "$out/report.py"
echo "gpu-build: $(du -sh "$out" | cut -f1) in $out/"
