#!/bin/bash
# .gpu/run.sh OUTDIR [NAME...]: run on a GPU machine what make gpu-build
# put in .gpu/ (copied there from mk/gpu-run.sh), from a copy of the tree.
# Needs no Go and no network: the driver, nvidia-smi, python3, and for the
# C references nvcc (CUDA_HOME, else /usr/local/cuda).
#
# Every test binary runs in its package's directory with -test.v, under
# CUGEN_REQUIRE_GPU=1 and CUGEN_REQUIRE_LIBS=1 (a missing device or
# library fails instead of skipping), NCCL_NVLS_ENABLE=0, a timeout each
# (CUGEN_GPU_TIMEOUT seconds, default 240); the binaries with GPU
# benchmarks run them again (-test.bench . -test.count CUGEN_GPU_BENCHCOUNT,
# default 3). The C references build with nvcc in the background while the
# tests run; then each example runs, and its C reference. A failure does
# not stop the run. At the end report.py writes OUTDIR/gpu-report.md from
# the raw logs (OUTDIR/gpu-logs.tar.gz) and says what was unexpected; the
# exit status is non-zero if anything was (a failure, a crash, a timeout,
# a skip not in report.py's expected list).
#
# NAME... runs only those binaries and examples (to split a run).
set -u
gpu=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$gpu")
out=${1:?usage: .gpu/run.sh OUTDIR [NAME...]}
shift
mkdir -p "$out" && out=$(cd "$out" && pwd)
only=" $* "
want() { [ "$only" = "  " ] || [[ "$only" == *" $1 "* ]]; }
raw=$(mktemp -d "${TMPDIR:-/tmp}/cugen-gpu.XXXXXX")
work=$raw/bin
mkdir -p "$work" "$raw/logs"
T=${CUGEN_GPU_TIMEOUT:-240}
BENCHCOUNT=${CUGEN_GPU_BENCHCOUNT:-3}
cuda_home=${CUDA_HOME:-/usr/local/cuda}
nvcc=$cuda_home/bin/nvcc

export CUGEN_REQUIRE_GPU=1 CUGEN_REQUIRE_LIBS=1 NCCL_NVLS_ENABLE=0
# libcuda.so.1 is the driver's (ldconfig's); the cuda12 packages get
# Debian's libcudart 12 from .gpu/lib, the cuda13 ones the toolkit's.
libcuda=$(ldconfig -p 2>/dev/null | awk '/libcuda\.so\.1 /{print $NF; exit}')
for d in /usr/local/nvidia/lib64 /usr/lib/x86_64-linux-gnu /usr/lib64; do
	[ -z "$libcuda" ] && [ -e "$d/libcuda.so.1" ] && libcuda=$d/libcuda.so.1
done
[ -n "$libcuda" ] && export CUGEN_LIBCUDA=$libcuda
ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')

{
	echo "gpus $ngpu"
	nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader 2>&1 | sed 's/^/gpu /'
	echo "toolkit $("$nvcc" --version 2>/dev/null | grep -o 'release [^,]*, V[0-9.]*' || echo "no nvcc at $nvcc")"
	echo "libcuda ${libcuda:-not found}"
	echo "host $(uname -srm)"
	echo "date $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "timeout ${T}s per binary, benchmarks -test.count $BENCHCOUNT"
} >"$raw/machine.txt"
cp "$gpu/commit" "$raw/commit.txt"
cp "$gpu/report.py" "$raw/" 2>/dev/null
: >"$raw/status.txt"

# unpack NAME: .gpu/bin/NAME.xz into the work directory (python3's lzma
# where there is no xz).
unpack() {
	if command -v xz >/dev/null; then
		xz -dc "$gpu/bin/$1.xz" >"$work/$1"
	else
		python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer)' "$gpu/bin/$1.xz" >"$work/$1"
	fi && chmod +x "$work/$1"
}

# Debian's CUPTI 12, cuFile 12 and three NPP 12 libraries, unpacked next to the binaries.
mkdir -p "$work/lib"
for f in libcupti.so.12 libcufile.so.0 libnppc.so.12 libnppial.so.12 libnppicc.so.12; do
	[ -f "$gpu/bin/lib-$f.xz" ] && unpack "lib-$f" && mv "$work/lib-$f" "$work/lib/$f"
done
# NVVM for the cuda12 and cuda13 packages: the toolkit's (Debian's is 27 MB)
nvvm12=
[ -e "$cuda_home/nvvm/lib64/libnvvm.so.4" ] && nvvm12=$cuda_home/nvvm/lib64/libnvvm.so.4

# envfor MAJOR: the variables of one major's libraries.
envfor() {
	if [ "$1" = 12 ]; then
		echo "CUGEN_LIBCUDART=$gpu/lib/libcudart.so.12 CUGEN_LIBCUPTI=$work/lib/libcupti.so.12 CUGEN_LIBCUFILE=$work/lib/libcufile.so.0 CUGEN_LIBNVVM=$nvvm12 CUGEN_LIBNPPC=$work/lib/libnppc.so.12 CUGEN_LIBNPPIAL=$work/lib/libnppial.so.12 CUGEN_LIBNPPICC=$work/lib/libnppicc.so.12 LD_LIBRARY_PATH=$gpu/lib:$work/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	else
		# the toolkit's CUDA 13 libraries are in its lib64, which the
		# search reads; libNVVM is in nvvm/lib64, which it does not
		echo "CUGEN_LIBCUDART= CUGEN_LIBNVVM=$nvvm12"
	fi
}

# run KIND NAME DIR LOG CMD...: CMD in DIR with the timeout, its output in
# LOG, a status line "KIND NAME RC SECONDS".
run() {
	local kind=$1 name=$2 dir=$3 log=$4
	shift 4
	local t0=$SECONDS rc
	echo "== $kind $name"
	(cd "$dir" && timeout -k 10 "$T" "$@") >"$raw/logs/$log" 2>&1
	rc=$?
	echo "$kind $name $rc $((SECONDS - t0))" >>"$raw/status.txt"
	echo "   exit $rc, $((SECONDS - t0)) s"
}

# The C references build while the tests run.
cbuild() {
	while read -r name major; do
		want "$name" || continue
		for src in "$root/examples/$name"/c/*.cu; do
			[ -e "$src" ] || continue
			# the libraries (and -rdc=true, for device runtime calls) from the build line in the file's comment
			libs=$(grep -m1 '//.*nvcc ' "$src" | grep -o -- ' -l[A-Za-z0-9_]*\| -rdc=true' | tr -d '\n')
			# shellcheck disable=SC2086
			if "$nvcc" -O2 -o "$work/c-$name" "$src" $libs >"$raw/logs/c-$name.build.log" 2>&1; then
				echo "cbuild $name 0" >>"$raw/cbuild.txt"
			else
				echo "cbuild $name $?" >>"$raw/cbuild.txt"
			fi
		done
	done <"$gpu/examples.txt"
	# NVIDIA's originals (.gpu/samples), all their .cu and .cpp files
	[ -f "$gpu/originals.txt" ] || return 0
	while read -r name sample libs; do
		want "$name" || continue
		dir=$gpu/samples/$sample
		bdir=$work/obuild-$name
		# the sample's own CMakeLists.txt where there is cmake (kernels it
		# builds into fatbins beside the program, data it copies); one nvcc
		# line over its .cu, .cpp and .c files where there is none, or where
		# the sample's CMakeLists.txt only works from the repository's top
		rc=1
		if command -v cmake >/dev/null; then
			{ cmake -S "$dir" -B "$bdir" -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CUDA_COMPILER="$nvcc" &&
				cmake --build "$bdir" -j 4; } >"$raw/logs/orig-$name.build.log" 2>&1
			rc=$?
			ln -sf "$bdir/$(basename "$sample")" "$work/orig-$name"
			echo "$bdir" >"$work/orig-$name.dir"
		fi
		if [ "$rc" != 0 ]; then
			rm -f "$work/orig-$name"
			# shellcheck disable=SC2086
			"$nvcc" -O2 -std=c++17 -gencode=arch=compute_90,code=sm_90 -I"$gpu/samples/Common" -I"$dir" \
				-o "$work/orig-$name" $(ls "$dir"/*.cu "$dir"/*.cpp "$dir"/*.c 2>/dev/null) $libs >>"$raw/logs/orig-$name.build.log" 2>&1
			rc=$?
			echo "$dir" >"$work/orig-$name.dir"
		fi
		echo "obuild $name $rc" >>"$raw/cbuild.txt"
	done <"$gpu/originals.txt"
}
: >"$raw/cbuild.txt"
cbuild &
cpid=$!

while read -r name pkg major bench _cgo; do
	want "$name" || continue
	unpack "$name.test" || { echo "test $name 127 0" >>"$raw/status.txt"; continue; }
	# Debian's NVRTC 12 and nvJitLink 12 do not travel: the cuda12 binaries
	# that use them may skip for them (report.py lists those skips).
	req=1
	[ "$name" = e2e ] || [ "$name" = layer12 ] || [ "$name" = npp12 ] && req=0
	# shellcheck disable=SC2046
	run test "$name" "$root/$pkg" "$name.log" env $(envfor "$major") CUGEN_REQUIRE_LIBS=$req \
		"$work/$name.test" -test.v -test.count=1 -test.timeout="$((T - 5))s"
	if [ "$bench" = 1 ]; then
		# shellcheck disable=SC2046
		run bench "$name" "$root/$pkg" "$name.bench.log" env $(envfor "$major") CUGEN_REQUIRE_LIBS=$req \
			"$work/$name.test" -test.run='^$' -test.bench=. -test.benchtime=100ms -test.count="$BENCHCOUNT" -test.timeout="$((T - 5))s"
	fi
done <"$gpu/tests.txt"

wait "$cpid"
while read -r name major; do
	want "$name" || continue
	if [ "$name" = ncclCollectives ] && [ "$ngpu" -lt 2 ]; then
		echo "SKIP: needs 2 GPUs ($ngpu here)" >"$raw/logs/ex-$name.go.log"
		echo "example $name skip 0" >>"$raw/status.txt"
		continue
	fi
	unpack "ex-$name" || { echo "example $name 127 0" >>"$raw/status.txt"; continue; }
	# shellcheck disable=SC2046
	run example "$name" "$root/examples/$name" "ex-$name.go.log" env $(envfor "$major") "$work/ex-$name"
	if [ -x "$work/c-$name" ]; then
		run cref "$name" "$root/examples/$name" "ex-$name.c.log" "$work/c-$name"
	fi
	if [ -x "$work/orig-$name" ]; then
		run orig "$name" "$(cat "$work/orig-$name.dir")" "ex-$name.orig.log" "$work/orig-$name"
	fi
done <"$gpu/examples.txt"

CUGEN_GPU_TREE=$root python3 "$gpu/report.py" "$raw" >"$out/gpu-report.md"
rc=$?
tar czf "$out/gpu-logs.tar.gz" -C "$raw" --exclude=./bin .  # the logs, not the unpacked binaries
rm -rf "$raw"
echo "report: $out/gpu-report.md, raw logs: $out/gpu-logs.tar.gz"
sed -n '/^## Summary/,/^## /p' "$out/gpu-report.md" | sed '$d'
exit $rc
