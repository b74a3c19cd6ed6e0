#!/bin/sh
# mk/gpu.sh: make gpu-build. Fills .gpu/ with everything a GPU machine
# without Go or a network needs to prove the tree there:
#
#	.gpu/tests.txt        NAME PKG MAJOR BENCH CGO, one test binary a line
#	.gpu/bin/NAME.test.xz the test binaries (stripped, xz: a fifth smaller than gzip)
#	.gpu/examples.txt     NAME MAJOR, one example a line (C reference: examples/NAME/c)
#	.gpu/bin/ex-NAME.xz   the examples (CGO_ENABLED=0 go build)
#	.gpu/lib/             Debian's libcudart.so.12 for the cuda12 packages
#	.gpu/bin/lib-*.xz     Debian's libcupti.so.12, libcufile.so.0, libnppc/nppial/nppicc.so.12 (compressed)
#	.gpu/originals.txt    NAME SAMPLEDIR LIBS, when CUDA_SAMPLES names a checkout
#	.gpu/samples/         NVIDIA's originals of the ported samples (Samples/G/N, Common/, cmake/)
#	.gpu/commit           the commit (and whether the tree was dirty)
#	.gpu/run.sh           the runner (mk/gpu-run.sh), with .gpu/libcuda.sh (mk/libcuda.sh);
#	                      .gpu/report.py (mk/gpu-report.py)
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

# NAME PKG MAJOR BENCH CGO (BENCH: 1 for the binaries with GPU benchmarks;
# CGO: 1 builds with cgo, for e2e's cgo column: its shim dlopens the
# libraries, so the binary needs only the C library there). The generated
# packages' tests resolve every symbol in the library the machine has: the
# driver's libcuda and libnvidia-ml for both majors, the toolkit's and
# NVIDIA's wheels' libraries for 13 (Debian's CUDA 12 math libraries are
# hundreds of MB and do not travel). A package whose directory is absent
# or has no tests (a math package of the layer not merged yet) is left
# out of tests.txt, with a note. The Go API (cuda/...) is one package
# whose CUDA major is a build tag: every binary of MAJOR 12 is built with
# -tags cuda12 (layer12: the API over CUDA 12; e2e: its tests of the API
# beside the cuda12 packages), every other with none (layer13, blas13,
# ...: the API over CUDA 13). The tag changes nothing in generated/cudaN.
cat >"$out/tests.all" <<'LIST'
cu12 generated/cuda12/cu 12 0 0
cudart12 generated/cuda12/cudart 12 0 0
nvml12 generated/cuda12/nvml 12 0 0
layer12 cuda 12 1 0
e2e e2e 12 1 1
npp12 e2e/npp 12 0 0
reliability reliability 12 0 0
cu13 generated/cuda13/cu 13 0 0
cudart13 generated/cuda13/cudart 13 0 0
nvrtc13 generated/cuda13/nvrtc 13 0 0
nvjitlink13 generated/cuda13/nvjitlink 13 0 0
cublas13 generated/cuda13/cublas 13 0 0
cublaslt13 generated/cuda13/cublaslt 13 0 0
curand13 generated/cuda13/curand 13 0 0
cufft13 generated/cuda13/cufft 13 0 0
cusparse13 generated/cuda13/cusparse 13 0 0
cusolver13 generated/cuda13/cusolver 13 0 0
nccl13 generated/cuda13/nccl 13 0 0
nvml13 generated/cuda13/nvml 13 0 0
layer13 cuda 13 1 0
blas13 cuda/blas 13 1 0
rand13 cuda/rand 13 1 0
fft13 cuda/fft 13 1 0
sparse13 cuda/sparse 13 1 0
solver13 cuda/solver 13 1 0
cudnn13 generated/cuda13/cudnn 13 0 0
cusparselt13 generated/cuda13/cusparselt 13 0 0
dnn13 cuda/dnn 13 0 0
algo13 cuda/algo 13 1 0
e2e13 e2e/e2e13 13 0 0
npp13 e2e/npp13 13 0 0
LIST
: >"$out/tests.txt"
while read -r name pkg major bench cgo; do
	if ! ls "$pkg"/*_test.go >/dev/null 2>&1; then
		echo "gpu-build: $name: no tests in ./$pkg, left out"
		continue
	fi
	echo "$name $pkg $major $bench $cgo" >>"$out/tests.txt"
done <"$out/tests.all"
rm "$out/tests.all"
tagfor() { if [ "$1" = 12 ]; then echo cuda12; fi; }
while read -r name pkg major bench cgo; do
	tags=$(tagfor "$major")
	echo "gpu-build: $name.test <- ./$pkg${tags:+ (-tags $tags)}"
	CGO_ENABLED=$cgo $GO test -c -tags="$tags" -ldflags='-s -w' -o "$out/bin/$name.test" "./$pkg"
	xz -9 -T1 "$out/bin/$name.test"
done <"$out/tests.txt"

: >"$out/examples.txt"
for d in examples/*/; do
	name=$(basename "$d")
	[ "$name" = downstream ] && continue # its own module (make downstream)
	grep -q '^package main$' "$d"*.go 2>/dev/null || continue
	# An example runs for CUDA 13 (no tag) unless its doc's command
	# says -tags cuda12 (cuptiTrace: Debian's CUPTI 12 travels).
	major=13
	grep -q "go run -tags cuda12 ./examples/$name" "$d"*.go && major=12
	tags=$(tagfor "$major")
	echo "gpu-build: examples/$name${tags:+ (-tags $tags)}"
	CGO_ENABLED=0 $GO build -tags="$tags" -ldflags='-s -w' -o "$out/bin/ex-$name" "./$d"
	xz -9 -T1 "$out/bin/ex-$name"
	echo "$name $major" >>"$out/examples.txt"
done

# NVIDIA's originals (CUDA_SAMPLES: a checkout of NVIDIA/cuda-samples,
# never committed): an example whose doc names Samples/GROUP/NAME carries
# that directory, built and run there beside the port. The libraries to
# link come from the sample's CMakeLists.txt (CUDA::cublas -> -lcublas).
: >"$out/originals.txt"
if [ -n "${CUDA_SAMPLES:-}" ]; then
	[ -d "$CUDA_SAMPLES/Samples" ] || { echo "gpu-build: CUDA_SAMPLES=$CUDA_SAMPLES has no Samples/" >&2; exit 1; }
	mkdir -p "$out/samples/Common" "$out/samples/cmake"
	cp "$CUDA_SAMPLES"/Common/*.h "$CUDA_SAMPLES"/Common/*.cpp "$out/samples/Common/"
	[ -d "$CUDA_SAMPLES/cmake" ] && cp -r "$CUDA_SAMPLES/cmake/." "$out/samples/cmake/"
	while read -r name _; do
		sample=$(grep -ho 'Samples/[0-9]_[A-Za-z_]*/[A-Za-z0-9_][A-Za-z0-9_]*' examples/"$name"/*.go | head -1)
		[ -n "$sample" ] && [ -d "$CUDA_SAMPLES/$sample" ] || continue
		mkdir -p "$out/samples/$(dirname "$sample")"
		cp -r "$CUDA_SAMPLES/$sample" "$out/samples/$sample"
		# the H200's architecture only: nine take minutes to build there
		sed -i 's/^set(CMAKE_CUDA_ARCHITECTURES .*)/set(CMAKE_CUDA_ARCHITECTURES 90)/' "$out/samples/$sample/CMakeLists.txt"
		libs=$(grep -o 'CUDA::[A-Za-z_]*' "$CUDA_SAMPLES/$sample/CMakeLists.txt" 2>/dev/null |
			sed 's/CUDA:://; s/_static$//; s/^cuda_driver$/cuda/' | sort -u | sed 's/^/-l/' | tr '\n' ' ')
		echo "$name $sample $libs" >>"$out/originals.txt"
		echo "gpu-build: original of $name <- $sample"
	done <"$out/examples.txt"
fi

cudart=$($GO run ./cmd/cugen libs -lib libcudart12)
cp -L "$cudart/libcudart.so.12" "$out/lib/"
# Debian's CUPTI 12 (the NVTX proof: CUPTI records a Go program's ranges)
# and cuFile 12, xz-compressed like the binaries; run.sh unpacks them
# and NPP 12's core, arithmetic and color libraries (TestNPPImageOps12;
# 8.6 MB compressed: the other NPP libraries and cuSOLVERMg do not travel)
for lib in libcupti12:libcupti.so.12 libcufile0:libcufile.so.0 libnppc12:libnppc.so.12 libnppial12:libnppial.so.12 libnppicc12:libnppicc.so.12; do
	d=$($GO run ./cmd/cugen libs -lib "${lib%%:*}")
	xz -9 -T1 -c "$d/${lib#*:}" >"$out/bin/lib-${lib#*:}.xz"
done

{
	echo "commit $(git rev-parse HEAD)"
	echo "date $(git log -1 --format=%cI)"
	echo "subject $(git log -1 --format=%s)"
	if [ -n "$(git status --porcelain --untracked-files=no)" ]; then echo "dirty yes (uncommitted changes)"; else echo "dirty no"; fi
	echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) with $($GO version)"
} >"$out/commit"
cp mk/gpu-run.sh "$out/run.sh"
cp mk/libcuda.sh "$out/libcuda.sh"
cp mk/gpu-report.py "$out/report.py"
chmod +x "$out/run.sh" "$out/report.py"
echo "gpu-build: $(du -sh "$out" | cut -f1) in $out/"
