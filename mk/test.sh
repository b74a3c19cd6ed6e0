#!/bin/bash
# mk/test.sh: make test, everything CI runs (.ci/run), on a clean clone of
# a 2-core machine without a GPU. Settings come from the Makefile: GO,
# MAKE, CUGEN, PARSE_SETS, and check's (mk/check.sh).
#
# Each step prints its wall and CPU time. Measured (CPU s, user+sys, on a
# shared 2-core machine): race 321 (ffi and genfiles 83, emit's and
# reliability's two tests 238; was ffi, genfiles, reliability and all of
# emit: about 10 min wall), check's regeneration and BUILD_SETS 176,
# downstream 130, test-windows 87, the apt-get installs 69 (271 s wall,
# hidden behind vet), the whole-tree vet of one platform with a cold Go
# cache 299.
#
# Steps that wait on the network (the fetches of a cold cache, apt-get)
# or the clock (the 60 s fuzz) run beside ones that keep the two cores
# busy; each background step is waited for and its failure fails the run.
#
# What each package is tested by, once: go test ./... (CGO_ENABLED=0, the
# way cugen's users build) every package; -race (which needs cgo) only
# where the concurrency lives: ffi (loading, calls and callbacks from many
# goroutines), internal/genfiles (two writers in one process:
# TestWriteSetConcurrent), reliability's TestConcurrentCalls (64
# goroutines of 10,000 calls; its other tests are one goroutine's error
# paths, in children) and emit's concurrent rendering of the packages
# (TestGeneratedUpToDate: the whole 12.4 family rendered at once must be
# the committed bytes; TestInParallel*: its pool's ordering and panics)
# and the parser's two passes side by side (TestSecondPass*). emit's
# other tests run single-threaded code, and
# under -race they regenerated the family a dozen times (about 10 minutes).
# go test's own vet (-vet=off) is left out: check's go vet ./... ran every
# analyzer over the same packages for linux/amd64 and arm64, and a second
# pass type-checked NPP's 18 MB a major again.
set -euo pipefail
GO=${GO:-go}
MAKE=${MAKE:-make}
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
trap 'exit 1' HUP INT TERM # the EXIT trap cleans up then too
TIMEFORMAT="%R s wall, %U s user, %S s sys"

# step NAME COMMAND...: run it, then print its times.
step() {
	local name=$1
	shift
	echo "make test: $name"
	{ time "$@" 2>&3; } 3>&2 2>"$logs/$name.time" || { echo "make test: $name failed" >&2; return 1; }
	echo "make test: $name: $(cat "$logs/$name.time")"
}
# start NAME COMMAND...: step in the background, its output to a log.
pids=() names=()
start() {
	step "$@" >"$logs/$1.log" 2>&1 &
	pids+=("$!") names+=("$1")
}
# finish: wait for each background step, print its log, fail if one did.
finish() {
	local i failed=
	for i in "${!pids[@]}"; do
		wait "${pids[$i]}" || failed="$failed ${names[$i]}"
		cat "$logs/${names[$i]}.log"
	done
	pids=() names=()
	if [ -n "$failed" ]; then echo "make test: failed:$failed" >&2; return 1; fi
}

# The functions that step runs chain their commands with && and return:
# set -e does not act inside a command whose status is tested.
fetch() {
	local set
	for set in $PARSE_SETS; do $CUGEN headers -set "$set" >/dev/null || return; done
	$CUGEN libs -env -major 12 >"$logs/env.sh"
}
# The fetch of every header set and of Debian's libraries (a missing set
# is a failure below: CUGEN_REQUIRE_HEADERS), and apt-get's installs for
# the arm64 and windows tests, while the tree is vetted for each platform.
start fetch fetch
start deps-emulators $MAKE --no-print-directory deps-arm64 deps-windows
step vet sh mk/check.sh vet
finish
. "$logs/env.sh"
export CUGEN_REQUIRE_ALL_SYMBOLS=1 CUGEN_REQUIRE_HEADERS=1 CUGEN_TEST_APT=1

step generated sh mk/check.sh generated
step gotest env CGO_ENABLED=0 $GO test -count=1 -vet=off ./...
# The Go API under -tags cuda12: its tests, and TestStandinLayer running
# it on the CUDA 12.4 stand-in (without the tag it checks the refusal).
step gotest-cuda12 env CGO_ENABLED=0 $GO test -count=1 -vet=off -tags cuda12 ./cuda/... ./cugentest
race() {
	CGO_ENABLED=1 $GO test -race -count=1 -vet=off ./ffi/... ./internal/genfiles ./internal/panics &&
	CGO_ENABLED=1 $GO test -race -count=1 -vet=off -timeout=20m -run '^(TestGeneratedUpToDate|TestConcurrentCalls|TestSecondPass.*|TestInParallel.*|TestBeside.*)$' ./emit ./reliability ./parser ./internal/gen
}
# cuda/algo's CUB kernels recompiled by NVRTC 12.4 from the pinned headers
# must be the committed cubins byte for byte (its three images compiled at
# once: 4 min 45 s of both cores alone, 7.6 min of CPU),
# beside the race step, which keeps about one core busy.
start cubk env CUGEN_TEST_CUB=1 CUGEN_REQUIRE_LIBS=1 $GO test -count=1 -vet=off -timeout=20m -run '^TestKernelsCheckAlgo$' ./cmd/cugen
step race race
step downstream sh mk/downstream.sh
start fuzz $GO test -run '^$' -fuzz=FuzzParse -fuzztime=60s -fuzzminimizetime=5s ./parser
step test-arm64 $MAKE --no-print-directory test-arm64
finish
step test-windows $MAKE --no-print-directory test-windows
