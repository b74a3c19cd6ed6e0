#!/bin/bash
# mk/test-windows.sh: make test-windows. Runs as windows/amd64 test
# binaries under Debian's wine64 8.0: package ffi's portable tests (the
# Windows library search, RunLocked, Check), ffiimpl's ABI conformance
# tests (Frame, CallInts, callbacks) and the generated wrappers'
# (emit/internal/abitest: every argument class, struct results, callbacks
# from C threads), against their fixtures built as DLLs with mingw-w64
# (CUGEN_FFI_TEST_LIB and CUGEN_ABI_FIXTURE name them). The wine prefix
# is a fresh temporary one; mk/wine/bcryptprimitives.c stands in for the
# system DLL wine 8.0 lacks and the Go runtime loads at start
# (ProcessPrng). TestVetClean runs the go command, which cannot start
# under wine.
#
# cugentest's TestStandinContextDemo and TestStandinLayer run the
# generated cu package and the layer against cugentest/testdata/
# cudastandin.c built as nvcuda.dll, which the Windows search finds beside
# the test binary (CUGEN_STANDIN_DRIVER=search: CUGEN_LIBCUDA is unset for
# them); both must pass, not skip. The generated cudart package's context
# demo (TestContextDemo, TestContextPerThread: examples/contextdemo's
# steps) runs on it and cugentest/testdata/cudartstandin.c built as
# cudart64_12.dll beside it. cugen doctor (cugen.exe) runs beside them,
# reporting its device, and in a directory without it, where the driver
# is an error with the advice.
#
# The layer's (package cuda's) tests run on its fake driver, those that
# need a driver skipping; WINDOWS_LAYER_SKIP leaves out five:
# TestFindDeviceRuntime passes but wine 8.0 cannot remove its temporary
# directory ("Invalid function"), TestMathScalarsAligned and
# TestDriverSeam read the layer's source beside the test binary (they
# run on Linux), and TestIPCHandleBounds and
# TestIPCHandleMisaligned make an IPC pool, which Windows refuses (a POSIX
# descriptor).
#
# Settings come from the Makefile: GO, WINE, WINESERVER, MINGW,
# WINDOWS_LAYER_SKIP.
set -euo pipefail
GO=${GO:-go}
tmp=$(mktemp -d)
# The wine server outlives the last program by seconds, writing to the
# prefix: it is stopped before the prefix is removed.
trap 'WINEPREFIX=$tmp/prefix $WINESERVER -k 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM # the EXIT trap cleans up then too
export GOOS=windows GOARCH=amd64 CGO_ENABLED=0
exe() { $GO test -c -o "$tmp/$1" "$2"; }
dll() { $MINGW -shared -static -O1 -o "$tmp/$1" "${@:2}"; }
dll ffiabi.dll ffi/ffiimpl/testdata/abi.c -lpthread
dll abi.dll emit/testdata/abi/abi.c -lpthread
mkdir "$tmp/standin"
dll standin/nvcuda.dll cugentest/testdata/cudastandin.c
dll standin/cudart64_12.dll cugentest/testdata/cudartstandin.c "$tmp/standin/nvcuda.dll"
exe ffi.exe ./ffi
exe ffiimpl.exe ./ffi/ffiimpl
exe abitest.exe ./emit/internal/abitest
# -tags cuda12: the stand-in is a CUDA 12.4 driver, and TestStandinLayer
# runs the Go API on it only in a build for CUDA 12 (issue 38)
GOFLAGS=-tags=cuda12 exe standin/cugentest.exe ./cugentest
exe standin/cudart.exe ./generated/cuda12/cudart
exe layer.exe ./cuda
$GO build -o "$tmp/standin/cugen.exe" ./cmd/cugen
cp "$tmp/standin/cugen.exe" "$tmp/cugen.exe"
unset GOOS GOARCH

export WINEPREFIX=$tmp/prefix WINEDEBUG=-all
$WINE wineboot -i >/dev/null 2>&1
$MINGW -shared -O1 -o "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" mk/wine/bcryptprimitives.c -ladvapi32
win() { printf 'Z:%s' "$1" | tr / '\\'; }
cd "$tmp"
# run NAME WHAT PROGRAM ARGS...: the program under wine, its log printed
# whole if it fails, else its summary lines.
run() {
	local name=$1
	echo "make test-windows: $2"
	$WINE "${@:3}" >"$name.log" 2>&1 || { cat "$name.log"; exit 1; }
	grep -E '^(--- |ok|PASS|FAIL)' "$name.log" || true
}
# passed LOG TEST...: each test passed (not skipped).
passed() {
	for t in "${@:2}"; do
		grep -q -- "^--- PASS: $t " "$1.log" || { cat "$1.log"; echo "make test-windows: $t did not pass" >&2; exit 1; }
	done
}
run ffi "ffi under wine" ./ffi.exe -test.count=1 -test.v
CUGEN_FFI_TEST_LIB="$(win "$tmp/ffiabi.dll")" run ffiimpl "ffi/ffiimpl under wine" ./ffiimpl.exe -test.count=1 -test.v
CUGEN_ABI_FIXTURE="$(win "$tmp/abi.dll")" run abitest "emit/internal/abitest under wine" ./abitest.exe -test.count=1 -test.skip '^TestVetClean$' -test.v
CUGEN_STANDIN_DRIVER=search run standin "the stand-in nvcuda.dll under wine (cugentest TestStandin*)" standin/cugentest.exe -test.count=1 -test.run '^TestStandin' -test.v
passed standin TestStandinContextDemo TestStandinLayer
CUGEN_LIBCUDA= CUGEN_LIBCUDART= run cudart "the context demo (cuda12/cudart) on the stand-in nvcuda.dll and cudart64_12.dll under wine" standin/cudart.exe -test.count=1 -test.run '^TestContext(Demo|PerThread)$' -test.v
passed cudart TestContextDemo TestContextPerThread

echo "make test-windows: cugen doctor -v (every check) under wine, with the stand-in nvcuda.dll beside it and without"
CUGEN_LIBCUDA= $WINE standin/cugen.exe doctor -v -major 12 -lib driver >doctor.log 2>&1 || { cat doctor.log; exit 1; }
for want in 'driver: CUDA driver: .*nvcuda\.dll$' 'driver: version: CUDA 12\.4 ' 'driver: device 0: cugen stand-in GPU' '^ok: no problems found'; do
	grep -qE "$want" doctor.log || { cat doctor.log; echo "make test-windows: cugen doctor did not print $want" >&2; exit 1; }
done
if CUGEN_LIBCUDA= $WINE ./cugen.exe doctor -v -major 12 -lib driver >doctor0.log 2>&1; then cat doctor0.log; echo "make test-windows: cugen doctor passed with no driver" >&2; exit 1; fi
grep -q '^error: driver: nvcuda.dll not found: install the NVIDIA driver' doctor0.log || { cat doctor0.log; exit 1; }
grep -hE '^(driver: device|ok|error)' doctor.log doctor0.log

echo "make test-windows: the layer's tests on its fake driver under wine"
CUGEN_LIBCUDA= CUGEN_LIBNVRTC= $WINE ./layer.exe -test.count=1 -test.skip "$WINDOWS_LAYER_SKIP" -test.v >layer.log 2>&1 || { cat layer.log; exit 1; }
echo "make test-windows: layer: $(grep -c '^--- PASS' layer.log) passed, $(grep -c '^--- SKIP' layer.log) skipped (no driver, NVRTC, go.mod or gcc under wine)"
