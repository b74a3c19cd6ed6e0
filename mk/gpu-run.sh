#!/bin/bash
# .gpu/run.sh OUTDIR [NAME...]: run on a GPU machine what make gpu-build
# put in .gpu/ (copied there from mk/gpu-run.sh), from a copy of the tree.
# Needs no Go and no network: the driver, nvidia-smi, python3, and for the
# C references nvcc (CUDA_HOME, else /usr/local/cuda).
#
# Every test binary runs in its package's directory with -test.v, under
# CUGEN_REQUIRE_GPU=1 and CUGEN_REQUIRE_LIBS=1 (a missing device or
# library fails instead of skipping), NCCL_NVLS_ENABLE=0, a timeout each
# (CUGEN_GPU_TIMEOUT seconds, default 420: algo13 checks its sorts
# against Go references at 2^24 keys, over 195 s on an H100); the
# binaries with GPU benchmarks run them again (-test.bench . -test.count CUGEN_GPU_BENCHCOUNT,
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
T=${CUGEN_GPU_TIMEOUT:-420}
BENCHCOUNT=${CUGEN_GPU_BENCHCOUNT:-3}
cuda_home=${CUDA_HOME:-/usr/local/cuda}
nvcc=$cuda_home/bin/nvcc

export CUGEN_REQUIRE_GPU=1 CUGEN_REQUIRE_LIBS=1 NCCL_NVLS_ENABLE=0
# libcuda.so.1 is CUGEN_LIBCUDA, else the driver's (mk/libcuda.sh); the
# cuda12 packages get Debian's libcudart 12 from .gpu/lib, the cuda13 ones
# the toolkit's.
. "$gpu/libcuda.sh"
libcuda=$(find_libcuda)
[ -n "$libcuda" ] && export CUGEN_LIBCUDA=$libcuda
# cuDNN 9 for the cuda13 binaries (layer/dnn's tests compare with PyTorch,
# which loads the same copy): the wheel of python3's torch environment,
# else the system's. libcudnn.so.9 opens its parts (libcudnn_graph.so.9,
# the engines) by soname: their directory goes on LD_LIBRARY_PATH.
cudnn_lib=$(python3 -c 'import os, nvidia.cudnn as m; print(os.path.join(list(m.__path__)[0], "lib"))' 2>/dev/null)
if [ ! -e "$cudnn_lib/libcudnn.so.9" ]; then
	cudnn_lib=$(ldconfig -p 2>/dev/null | awk '/libcudnn\.so\.9 /{print $NF; exit}')
	cudnn_lib=${cudnn_lib%/*}
fi

ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')

{
	echo "gpus $ngpu"
	nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader 2>&1 | sed 's/^/gpu /'
	echo "toolkit $("$nvcc" --version 2>/dev/null | grep -o 'release [^,]*, V[0-9.]*' || echo "no nvcc at $nvcc")"
	echo "libcuda ${libcuda:-not found}"
	echo "cudnn ${cudnn_lib:-not found}"
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

# cuSPARSELt for cusparselt13's symbol test: the wheel of python3's environment.
cusparselt_lib=$(python3 -c 'import os, nvidia.cusparselt as m; print(os.path.join(list(m.__path__)[0], "lib"))' 2>/dev/null)
[ -e "$cusparselt_lib/libcusparseLt.so.0" ] || cusparselt_lib=

# CUGEN_GPU_HEADERS=1: OUTDIR/headers.tar.xz, the headers only this
# machine has, which make generate13 and make generate-wheels parse: the
# toolkit's include/ (but CCCL's cub, thrust and cuda, which no set pins)
# and nvvm/include as cuda/, and the cuDNN and cuSPARSELt wheels'
# include/ as cudnn/ and cusparselt/ (docs/gpu.md, "The CUDA 13 headers").
if [ "${CUGEN_GPU_HEADERS:-}" = 1 ]; then
	h=$raw/headers
	mkdir -p "$h/cuda"
	tar -C "$cuda_home" -chf - --exclude=include/cccl --exclude=include/cub --exclude=include/thrust --exclude=include/cuda \
		include nvvm/include | tar -C "$h/cuda" -xf -
	for w in cudnn:"$cudnn_lib" cusparselt:"$cusparselt_lib"; do
		inc=${w#*:}
		inc=${inc%/lib}/include
		[ -d "$inc" ] && mkdir -p "$h/${w%%:*}" && cp -rL "$inc" "$h/${w%%:*}/"
	done
	tar -C "$h" -cf - . | xz -6 >"$out/headers.tar.xz"
	rm -rf "$h"
	echo "headers: $out/headers.tar.xz"
fi

# envfor MAJOR: the variables of one major's libraries.
envfor() {
	if [ "$1" = 12 ]; then
		echo "CUGEN_LIBCUDART=$gpu/lib/libcudart.so.12 CUGEN_LIBCUPTI=$work/lib/libcupti.so.12 CUGEN_LIBCUFILE=$work/lib/libcufile.so.0 CUGEN_LIBCUFILE_ALT=$cuda_home/lib64/libcufile.so.0 CUGEN_LIBNVVM=$nvvm12 CUGEN_LIBNPPC=$work/lib/libnppc.so.12 CUGEN_LIBNPPIAL=$work/lib/libnppial.so.12 CUGEN_LIBNPPICC=$work/lib/libnppicc.so.12 LD_LIBRARY_PATH=$gpu/lib:$work/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	else
		# the toolkit's CUDA 13 libraries are in its lib64, which the
		# search reads; libNVVM is in nvvm/lib64, which it does not
		echo "CUGEN_LIBCUDART= CUGEN_LIBNVVM=$nvvm12${cusparselt_lib:+ CUGEN_LIBCUSPARSELT=$cusparselt_lib/libcusparseLt.so.0}${cudnn_lib:+ CUGEN_LIBCUDNN=$cudnn_lib/libcudnn.so.9 LD_LIBRARY_PATH=$cudnn_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}}"
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

# e2e_diag NAME: whether this run runs the C diagnostic NAME of e2e's
# testdata (cufile_ref, nvjitlink_threads): beside the e2e binary (not in
# an examples-only bundle of mk/gpu-split.sh), when NAME or e2e is asked for.
e2e_diag() { grep -q '^e2e ' "$gpu/tests.txt" && { want "$1" || want e2e; }; }

# The C references build while the tests run.
cbuild() {
	# cuFile's C reference (e2e/testdata/cufile_ref.c), linked with the
	# toolkit's libcufile; cudart static, as nvcc links it by default
	if e2e_diag cufile_ref; then
		if "$nvcc" -O2 -D_GNU_SOURCE -o "$work/cufile_ref" "$root/e2e/testdata/cufile_ref.c" -lcufile >"$raw/logs/cufile_ref.build.log" 2>&1; then
			echo "dbuild cufile_ref 0" >>"$raw/cbuild.txt"
		else
			echo "dbuild cufile_ref $?" >>"$raw/cbuild.txt"
		fi
	fi
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

# cuFile's C reference under e2e TestCuFileReadToDevice12's first
# configuration (forced compatibility mode), once with Debian's libcufile
# 1.9 (the one the cuda12 package gets) and once with the toolkit's: its
# step lines and the end of cuFile's log go to this run's output, and to
# the report's diagnostics (not counted as failures).
if [ -x "$work/cufile_ref" ]; then
	mkdir -p "$raw/cufile"
	cat >"$raw/cufile/cufile.json" <<'JSON'
{
  "logging": {"level": "TRACE"},
  "properties": {"allow_compat_mode": true, "force_compat_mode": true, "use_poll_mode": false},
  "miscellaneous": {"skip_topology_detection": true}
}
JSON
	for v in debian:"$work/lib" toolkit:"$cuda_home/lib64"; do
		run diag "cufile_ref-${v%%:*}" "$raw/cufile" "cufile_ref-${v%%:*}.log" env \
			CUFILE_ENV_PATH_JSON="$raw/cufile/cufile.json" CUFILE_ALLOW_COMPAT_MODE=true CUFILE_FORCE_COMPAT_MODE=true \
			CUFILE_SKIP_TOPOLOGY_DETECTION=true CUFILE_LOGGING_LEVEL=TRACE \
			CUFILE_LOGFILE_PATH="$raw/logs/cufile_ref-${v%%:*}.cufile.log" LD_LIBRARY_PATH="${v#*:}${libcuda:+:${libcuda%/*}}" \
			"$work/cufile_ref" "$raw/cufile"
		sed 's/^/   /' "$raw/logs/cufile_ref-${v%%:*}.log"
		echo "   cuFile's log, its end:"
		tail -n 25 "$raw/logs/cufile_ref-${v%%:*}.cufile.log" 2>/dev/null | sed 's/^/   | /'
	done
elif e2e_diag cufile_ref; then
	echo "== cufile_ref: nvcc failed:"
	tail -n 20 "$raw/logs/cufile_ref.build.log" | sed 's/^/   /'
fi
# nvJitLink with one handle's calls on two threads, in C
# (e2e/testdata/nvjitlink_threads.c), against the toolkit's nvJitLink 13:
# whether 13 needs the thread library.NVJitLink gives it for 12.4's crash
# (a diagnostic: "threads" ending in a signal is the bug, "same" is ok).
if e2e_diag nvjitlink_threads && gcc -O1 -o "$work/nvjitlink_threads" "$root/e2e/testdata/nvjitlink_threads.c" -ldl -lpthread >"$raw/logs/nvjitlink_threads.build.log" 2>&1; then
	for how in threads same; do
		run diag "nvjitlink_threads-13-$how" "$work" "nvjitlink_threads-13-$how.log" \
			"$work/nvjitlink_threads" "$cuda_home/lib64/libnvrtc.so.13" "$cuda_home/lib64/libnvJitLink.so.13" 13_0 "$how"
		sed 's/^/   /' "$raw/logs/nvjitlink_threads-13-$how.log"
	done
fi
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
