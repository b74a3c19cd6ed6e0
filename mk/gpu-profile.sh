#!/bin/sh
# mk/gpu-profile.sh [OUTDIR]: where the time of one raw kernel launch goes,
# Go against C (issue 41, "the raw call at C's cost"), and what the layer
# adds to a launch and to a stream-ordered allocation. Runs on the GPU
# machine (no Go, no network: the driver, python3, and gcc or nvcc), from
# a copy of the tree that carries bin/perf:
#
#	bin/perf/*.deb        Debian 12's linux-perf and the libraries it
#	                      needs that the GPU machine may lack (apt-get
#	                      download, here); unpacked with dpkg -x (python3
#	                      where there is no dpkg) into a private root
#	bin/perf/layer.test   the cuda package's test binary, NOT stripped
#	                      (perf reads its symbol table), made here with
#	                      go test -c -ldflags=-w -o bin/perf/layer.test ./cuda
#	                      (xz'ed as layer.test.xz, if it must be smaller)
#
# It profiles loops of N launches of an empty kernel with no arguments on
# the legacy stream, in bursts of 64 with a wait between: the raw Go loop
# (BenchmarkRawLaunchSubmit: the generated cu.LaunchKernel, on one locked
# thread), the same launches through the layer (BenchmarkTypedLaunchSubmit:
# Kernel.LaunchFrame, as a launcher of cugen kernels makes it, in one
# Context.Run) and the C loop (e2e/testdata/bench.c "submit", built here
# with gcc or nvcc); and N pairs of a 256-byte stream-ordered allocation
# and its free, raw (BenchmarkRawAllocSubmit) and through the layer in a
# scope (BenchmarkScopeAllocSubmit). For each, perf stat counts
# (task-clock, and cycles and instructions where the machine has them)
# and perf record -g samples; then it prints each one's top symbols with
# their time per call, the Go runtime's crossing (runtime.cgocall,
# asmcgocall, entersyscall, exitsyscall, the ffiimpl trampoline) summed
# apart from libcuda's own time and the layer's, and the differences Go
# minus C, typed minus raw Go, and the layer's pairs minus raw. Everything
# goes under OUTDIR (default $OUT, else a temporary directory):
# stat-*.txt, report-*.txt, callers-*.txt, summary.txt, the perf.data
# files, and go.pprof, typed.pprof and alloc.pprof (Go's own CPU profiles
# of the Go loops, for when perf may not run).
#
#	CUGEN_PROFILE_LAUNCHES  N (default 1000000)
#	CUDA_HOME               the toolkit (default /usr/local/cuda): nvcc, libcudart
#	CUGEN_LIBCUDA, CUGEN_LIBCUDART  the libraries (default: ldconfig's, the toolkit's)
#
# Here (with Go and apt), `sh mk/gpu-profile.sh -prep` fills bin/perf:
# the .debs (Debian 12's, about 12 MB) and layer.test.xz (3.5 MB). Then carry
# bin/perf to the GPU machine and run `sh mk/gpu-profile.sh "$OUT"` there.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = -prep ]; then
	mkdir -p "$root/bin/perf"
	cd "$root/bin/perf"
	rm -f ./*.deb
	# perf and the libraries of its ldd that a GPU machine (Ubuntu 24.04's
	# python3.12, glibc 2.39) may lack; the C and C++ libraries, zlib, xz,
	# zstd, bzip2, expat, uuid, pcre2 and libcap are left to the machine
	apt-get download linux-perf libbabeltrace1 libdw1 libelf1 libopencsd1 libperl5.36 \
		libpython3.11 libslang2 libunwind8 libnuma1 libglib2.0-0
	cd "$root"
	rm -f bin/perf/layer.test bin/perf/layer.test.xz
	${GO:-go} test -c -ldflags=-w -o bin/perf/layer.test ./cuda
	xz -T0 bin/perf/layer.test # bin/perf/layer.test.xz
	du -sh bin/perf
	exit 0
fi
out=${1:-${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/cugen-profile.XXXXXX")}}
mkdir -p "$out" && out=$(cd "$out" && pwd)
n=${CUGEN_PROFILE_LAUNCHES:-1000000}
cuda_home=${CUDA_HOME:-/usr/local/cuda}
pd=$root/bin/perf
work=$(mktemp -d "${TMPDIR:-/tmp}/cugen-perf.XXXXXX")
trap 'rm -rf "$work"' EXIT

# perf, unpacked into a private root
ls "$pd"/linux-perf_*.deb >/dev/null 2>&1 || { echo "gpu-profile: no bin/perf/linux-perf_*.deb: carry bin/perf (see the top of this script)" >&2; exit 2; }
for deb in "$pd"/*.deb; do
	if command -v dpkg >/dev/null; then
		dpkg -x "$deb" "$work/root"
	else
		python3 - "$deb" "$work/root" <<'PY'
import io, lzma, sys, tarfile
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"!<arch>\n", "not a .deb"
i = 8
while i < len(data):
    name, size = data[i:i+16].decode().strip().rstrip("/"), int(data[i+48:i+58])
    body = data[i+60:i+60+size]
    if name.startswith("data.tar"):
        if name.endswith(".zst"):
            sys.exit("data.tar.zst: needs dpkg or zstd")
        tarfile.open(fileobj=io.BytesIO(body)).extractall(sys.argv[2])
    i += 60 + size + (size & 1)
PY
	fi
done
perflib=$work/root/usr/lib/x86_64-linux-gnu:$work/root/lib/x86_64-linux-gnu
# perf runs with its libraries; the programs it starts run without them
perf() { LD_LIBRARY_PATH=$perflib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} "$work/root/usr/bin/perf" "$@"; }
if ! perf --version >"$out/perf-version.txt" 2>&1; then
	cat "$out/perf-version.txt" >&2
	echo "gpu-profile: Debian's perf does not start here (above): a library missing from bin/perf, or an older C library than Debian 12's" >&2
	exit 2
fi
unenv="env -u LD_LIBRARY_PATH"

# the two programs
if [ -f "$pd/layer.test" ]; then
	cp "$pd/layer.test" "$work/layer.test"
elif [ -f "$pd/layer.test.xz" ]; then
	python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$pd/layer.test.xz" "$work/layer.test"
else
	echo "gpu-profile: no bin/perf/layer.test (go test -c -ldflags=-w -o bin/perf/layer.test ./cuda, here)" >&2
	exit 2
fi
chmod +x "$work/layer.test"
if command -v gcc >/dev/null; then
	gcc -O2 -o "$work/bench" "$root/e2e/testdata/bench.c" -ldl
else
	"$cuda_home/bin/nvcc" -O2 -o "$work/bench" "$root/e2e/testdata/bench.c" -ldl
fi
. "$root/mk/libcuda.sh"
libcuda=$(find_libcuda)
libcudart=${CUGEN_LIBCUDART:-$(ls "$cuda_home"/lib64/libcudart.so.1[0-9]* 2>/dev/null | head -1)}
[ -n "$libcudart" ] || libcudart=$(ls "$root"/.gpu/lib/libcudart.so.12 2>/dev/null | head -1)
[ -n "$libcuda" ] && [ -n "$libcudart" ] || { echo "gpu-profile: libcuda ($libcuda) or libcudart ($libcudart) not found" >&2; exit 2; }
export CUGEN_LIBCUDA="$libcuda" CUGEN_REQUIRE_GPU=1

{
	echo "machine: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1); $(uname -srm); $(nproc) CPUs"
	echo "libcuda $libcuda, libcudart $libcudart, $n launches a loop"
	perf --version
} >"$out/summary.txt"

# the loops, each a script perf starts: go (the raw Go loop), typed (the
# same launches through the layer, as a launcher of cugen kernels makes
# them in a bound scope), c, and N stream-ordered allocation pairs raw
# (allocraw) and through the layer in a scope (alloc)
ways="go typed c allocraw alloc"
bench_of() {
	case $1 in
	go) echo BenchmarkRawLaunchSubmit ;;
	typed) echo BenchmarkTypedLaunchSubmit ;;
	allocraw) echo BenchmarkRawAllocSubmit ;;
	alloc) echo BenchmarkScopeAllocSubmit ;;
	esac
}
for way in $ways; do
	bench=$(bench_of $way)
	if [ $way = c ]; then
		printf 'exec %s "%s" "%s" "%s" submit %s\n' "$unenv" "$work/bench" "$libcuda" "$libcudart" "$n"
	else
		printf 'cd "%s" && exec %s "%s" -test.run "^\\$" -test.bench "^%s\\$" -test.benchtime=%sx -test.count=1\n' \
			"$root/cuda" "$unenv" "$work/layer.test" "$bench" "$n"
	fi >"$work/loop-$way.sh"
done

# counts, then samples: perf record falls back to cpu-clock where the VM
# has no cycles counter
for way in $ways; do
	echo "== perf stat $way"
	set -- sh "$work/loop-$way.sh"
	perf stat -e task-clock,context-switches,cycles,instructions -o "$out/stat-$way.txt" -- "$@" >"$out/run-stat-$way.txt" 2>&1 || echo "gpu-profile: the $way loop under perf stat: exit $?" >&2
	cat "$out/run-stat-$way.txt" "$out/stat-$way.txt"
	echo "== perf record $way"
	perf record -F 4999 -g -o "$out/$way.data" -- "$@" >"$out/run-record-$way.txt" 2>&1 ||
		perf record -e cpu-clock -F 4999 -g -o "$out/$way.data" -- "$@" >"$out/run-record-$way.txt" 2>&1 ||
		echo "gpu-profile: perf record $way failed: $out/run-record-$way.txt" >&2
	perf report -i "$out/$way.data" --stdio --no-children --sort dso,sym -g none --percent-limit 0.2 >"$out/report-$way.txt" 2>/dev/null || true
	# who calls into libcuda, and what the Go crossing's samples sit under
	perf report -i "$out/$way.data" --stdio --no-children --sort sym -g caller,0.5,callee --percent-limit 2 >"$out/callers-$way.txt" 2>/dev/null || true
done

# Go's own profile of the Go loop too, which needs no perf_event_open (a
# container may refuse it): read it here with go tool pprof -top
# bin/perf/layer.test OUTDIR/WAY.pprof (the same build)
for way in go typed alloc; do
	bench=$(bench_of $way)
	(cd "$root/cuda" && $unenv "$work/layer.test" -test.run '^$' -test.bench "^$bench\$" \
		-test.benchtime="${n}x" -test.count=1 -test.cpuprofile="$out/$way.pprof" >"$out/run-pprof-$way.txt" 2>&1) ||
		echo "gpu-profile: the $way loop with -test.cpuprofile: exit $?" >&2
done

python3 - "$out" "$n" >>"$out/summary.txt" <<'PY'
import re, sys
out, n = sys.argv[1], int(sys.argv[2])
crossing = ("runtime.cgocall", "runtime.asmcgocall", "runtime.entersyscall", "runtime.reentersyscall",
            "runtime.exitsyscall", "runtime.exitsyscallfast", "runtime.exitsyscall0", "runtime.casgstatus",
            "runtime.save", "runtime.acquirem", "runtime.releasem", "ffiimpl.trampoline", "ffiimpl.Call")

def task_ms(way):
    try:
        lines = open(f"{out}/stat-{way}.txt").readlines()
    except OSError:
        return None
    for line in lines:
        m = re.match(r"\s*([\d,.]+)\s+msec\s+task-clock", line)
        if m:
            return float(m.group(1).replace(",", ""))
    return None

def rows(way):
    try:
        lines = open(f"{out}/report-{way}.txt").readlines()
    except OSError:
        return
    for line in lines:  # Go assembly is name.abi0
        m = re.match(r"\s*([\d.]+)%\s+(\S+)\s+\[(.)\]\s+(.*\S)", line)
        if m:
            yield float(m.group(1)), m.group(2), m.group(3), m.group(4).removesuffix(".abi0")

def launches(way):
    # the submit loop's own count; Go's is b.N (after a first run of 1)
    try:
        txt = open(f"{out}/run-record-{way}.txt").read()
    except OSError:
        txt = ""
    m = re.search(r"(\d+) launches", txt)
    return int(m.group(1)) if m else n

res = {}
for way in ("go", "typed", "c", "allocraw", "alloc"):
    ms = task_ms(way)
    k = launches(way)
    unit = "pair" if way.startswith("alloc") else "launch"
    units = "pairs" if unit == "pair" else "launches"
    print(f"\n== {way}: task-clock {ms} ms for {k} {units} (+ setup and the waits)")
    if ms is None:
        continue
    per = lambda pct: pct / 100 * ms * 1e6 / k
    groups = {"go-crossing": 0.0, "libcuda": 0.0, "kernel": 0.0, "go-other": 0.0, "other": 0.0}
    print(f"{'%':>7} {'ns/' + unit:>10}  dso  symbol")
    for i, (pct, dso, kind, sym) in enumerate(rows(way)):
        if i < 25:
            print(f"{pct:7.2f} {per(pct):10.1f}  {dso}  {sym}")
        if any(sym == c or sym.startswith(c + " ") or sym.endswith("/" + c) for c in crossing):
            groups["go-crossing"] += pct
        elif "libcuda" in dso:
            groups["libcuda"] += pct
        elif kind == "k":
            groups["kernel"] += pct
        elif dso.startswith("layer.test"):
            groups["go-other"] += pct
        else:
            groups["other"] += pct
    res[way] = {g: per(p) for g, p in groups.items()}
    print(f"groups, ns/{unit}: " + ", ".join(f"{g} {v:.1f}" for g, v in res[way].items()))
for a, b, what, unit in (("go", "c", "Go minus C", "launch"),
                        ("typed", "go", "the layer's typed launch in a scope minus raw Go", "launch"),
                        ("alloc", "allocraw", "the layer's AllocAsync and Close in a scope minus raw Go", "pair")):
    if a in res and b in res:
        print(f"\n== {what}, ns/{unit} (libcuda includes the waits' spinning, alike in both):")
        for g in res[a]:
            print(f"  {g:12} {res[a][g] - res[b][g]:+8.1f}")
PY
cat "$out/summary.txt"
echo "gpu-profile: the reports are in $out"
