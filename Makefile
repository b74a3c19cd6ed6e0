# cugen: generate Go bindings for the CUDA libraries (the family: library/).
#
#	make generate   fetch the locked headers and regenerate every committed package
#	make check      regenerate in a temporary directory; fail listing stale files
#	make test       everything CI runs (fetches headers and Debian's CUDA libraries)
#	make quick      vet and the unit tests of set 12.4 (minutes; not CI's whole run)
#	make gpu        build every GPU test binary and example into .gpu/, run them if a
#	                GPU is here (else: carry .gpu/ to one and run .gpu/run.sh OUT)
#	make bench      benchmarks that need no GPU
#
# NVIDIA's files are fetched into the cache (see mk/headers.mk), never the repo.

GO ?= go
CUGEN ?= $(GO) run ./cmd/cugen
# Header sets generated into generated/: Debian's, regenerated anywhere.
GEN_SETS ?= 12.4
# Sets the parser must read without error (headers.lock has them all).
PARSE_SETS ?= 11.8 12.4 12.5
# Sets generated into a scratch directory and built and vetted, not committed.
BUILD_SETS ?= 11.8 12.5

include mk/headers.mk

.PHONY: generate generate13 generate-wheels wheels-from-ir check test quick bench downstream test-arm64 test-windows fuzz gpu gpu-build
# The long recipes are scripts in mk/, which get these settings.
export GO CUGEN GEN_SETS PARSE_SETS BUILD_SETS IR13 WHEEL_LIBS

# fuzz: the parser's, the saved IR's and the comment sanitiser's fuzz
# targets, one at a time, for longer than CI does (FUZZTIME=10m).
FUZZTIME ?= 5m
fuzz:
	$(GO) test -run '^$$' -fuzz=FuzzParse -fuzztime=$(FUZZTIME) ./parser
	$(GO) test -run '^$$' -fuzz=FuzzDecodeIR -fuzztime=$(FUZZTIME) ./parser/ir
	$(GO) test -run '^$$' -fuzz=FuzzGenerateIR -fuzztime=$(FUZZTIME) ./emit
	$(GO) test -run '^$$' -fuzz=FuzzMutateIR -fuzztime=$(FUZZTIME) ./emit
	$(GO) test -run '^$$' -fuzz=FuzzSanitizeComment -fuzztime=$(FUZZTIME) ./emit

# gen -set emits from the IRs cugen carries: ir -carried refreshes them first.
# cuda/sys, the API's major-neutral packages, is written by cugen sys from
# generated/; gen writes a module's copy of the API unless -layer=false.
generate: deps
	$(CUGEN) ir -carried
	@for set in $(GEN_SETS); do \
		major=$${set%%.*}; \
		$(CUGEN) gen -set $$set -out generated/cuda$$major -layer=false || exit 1; \
	done
	$(CUGEN) gen -ir $(IR13) -out generated/cuda13 -layer=false
	@$(MAKE) --no-print-directory wheels-from-ir
	$(CUGEN) sys

# generated/cuda13 comes from the CUDA 13.0 toolkit's headers, which Debian
# does not package: generate13 parses them (set 13.0 of headers.lock,
# verified in place; CUDA_HOME=/usr/local/cuda) into the committed IR, from
# which make generate and make check regenerate generated/cuda13 anywhere.
# LIBS13 are the libraries it binds (with cu and cudart). NPP 13.0's
# libraries export only the _Ctx form of the functions its headers declare
# in two forms: its packages leave the other out (library.Desc.CtxOnly).
IR13 = generated/cuda13/ir.json.gz
LIBS13 = nvrtc,nvjitlink,cublas,cublaslt,curand,cufft,cusparse,cusolver,nvml,nccl,nvvm,nvfatbin,cupti,cufile,nvjpeg,cublasxt,cufftxt,cusolvermg,nppc,nppial,nppicc,nppidei,nppif,nppig,nppim,nppist,nppisu,nppitc,npps
generate13:
	@test -n "$(CUDA_HOME)" || { echo "make generate13: set CUDA_HOME to a CUDA 13.0 toolkit (its include directory is verified against set 13.0)" >&2; exit 1; }
	CUDA_HOME=$(CUDA_HOME) $(CUGEN) ir -set 13.0 -lib $(LIBS13) -out $(IR13)
	$(CUGEN) gen -ir $(IR13) -out generated/cuda13 -layer=false

# The libraries whose headers come from NVIDIA's wheels (headers entries of
# headers.lock with a wheel origin, verified in place) have IRs of their
# own, parsed with a set and the entry (-set 12.4+cudnn9) and only their
# libraries (-lib): generated/cudaN/ir-LIB.json.gz. make generate and make
# check write and compare generated/cudaN/LIB from them, so neither needs
# the wheels' headers, and set 12.4 never does. cuDNN's headers read only
# cudaStream_t and library_types.h of CUDA: its packages for 12 and 13
# differ only in their origin lines. cuSPARSELt's includes cusparse.h
# (its status type is cuSPARSE's) and reads cudaStream_t, cudaDataType and
# cuSPARSE's status, operation, order and compute type enums, the same in
# 12.4 and 13.0 but for cudaDataType's new FP8/FP6/FP4 values in 13.0: its
# package of each major uses that major's cusparse and cudart.
WHEEL_LIBS = 12:cudnn 12:cusparselt 13:cudnn 13:cusparselt
generate-wheels:
	@test -n "$(CUDNN_HOME)" -a -n "$(CUSPARSELT_HOME)" -a -n "$(CUDA_HOME)" || { echo "make generate-wheels: set CUDNN_HOME and CUSPARSELT_HOME to the wheels' directories (site-packages/nvidia/cudnn, .../cusparselt) and CUDA_HOME to a CUDA 13.0 toolkit" >&2; exit 1; }
	CUDNN_HOME=$(CUDNN_HOME) $(CUGEN) ir -set 12.4+cudnn9 -lib cudnn -out generated/cuda12/ir-cudnn.json.gz
	CUDNN_HOME=$(CUDNN_HOME) CUDA_HOME=$(CUDA_HOME) $(CUGEN) ir -set 13.0+cudnn9 -lib cudnn -out generated/cuda13/ir-cudnn.json.gz
	CUSPARSELT_HOME=$(CUSPARSELT_HOME) $(CUGEN) ir -set 12.4+cusparselt0 -lib cusparse,cusparselt -out generated/cuda12/ir-cusparselt.json.gz
	CUSPARSELT_HOME=$(CUSPARSELT_HOME) CUDA_HOME=$(CUDA_HOME) $(CUGEN) ir -set 13.0+cusparselt0 -lib cusparse,cusparselt -out generated/cuda13/ir-cusparselt.json.gz
	@$(MAKE) --no-print-directory wheels-from-ir
# wheels-from-ir writes each such package from its IR (gen -lib also
# writes the packages it imports: those stay the main set's).
wheels-from-ir:
	@set -e; for ml in $(WHEEL_LIBS); do \
		m=$${ml%%:*}; lib=$${ml#*:}; tmp=$$(mktemp -d); \
		$(CUGEN) gen -ir generated/cuda$$m/ir-$$lib.json.gz -lib $$lib -out $$tmp -importpath github.com/cugen/cugen/generated/cuda$$m -layer=false >/dev/null; \
		rm -rf generated/cuda$$m/$$lib; cp -r $$tmp/$$lib generated/cuda$$m/$$lib; rm -rf $$tmp; \
		echo "cugen: generated/cuda$$m/$$lib from generated/cuda$$m/ir-$$lib.json.gz"; \
	done

# check regenerates every committed package into a temporary directory,
# listing the stale ones, then vets the tree for each platform (mk/check.sh).
check: deps
	@sh mk/check.sh

# test is what CI runs (mk/test.sh): it fetches every set, so a set missing
# from the cache is a failure there (CUGEN_REQUIRE_HEADERS=1), Debian's
# libraries (cugen libs -env: the variables of the library registry), and
# runs the one test that asks Debian's archive (CUGEN_TEST_APT=1).
# Each step prints its wall and CPU time; a quiet 2-core machine runs a
# compile step in about half its CPU time. Expected: 25-30 min, warm cache.
test: deps
	@MAKE="$(MAKE)" bash mk/test.sh

# quick is the edit-test loop: vet beside the unit tests (-short: not the
# long stress rounds) against set 12.4 and Debian's libraries, as make test
# sets them up, leaving out the 11.8 and 12.5 sets, make check, the other
# platforms, race, fuzz, downstream, arm64 and windows.
# (go vet type-checks what go build would; go test's own vet is off.)
quick: deps
	@set -e; $(CUGEN) headers -set 12.4 >/dev/null; \
	eval "$$($(CUGEN) libs -env -major 12)"; \
	export CUGEN_TEST_SETS=12.4 CUGEN_REQUIRE_HEADERS=1 CUGEN_REQUIRE_ALL_SYMBOLS=1; \
	$(GO) vet ./... & v=$$!; CGO_ENABLED=0 $(GO) test -short -count=1 -vet=off ./... || { wait $$v; exit 1; }; wait $$v

# gpu-build fills .gpu/ (mk/gpu.sh): every GPU test binary of both majors
# and the examples, built here with CGO_ENABLED=0, Debian's libcudart 12,
# the commit, and the runner .gpu/run.sh with its report writer (python3).
# The GPU machine needs no Go: carry .gpu/ with the tree and run
# .gpu/run.sh OUTDIR there; it writes OUTDIR/gpu-report.md (committed as
# docs/gpu-report.md) and exits non-zero on anything unexpected.
# With CUDA_SAMPLES=DIR (a checkout of NVIDIA/cuda-samples), the originals
# of the ported samples travel too and run beside the ports.
# gpu = gpu-build, then run.sh here if this machine has a GPU.
gpu-build: deps
	@GO="$(GO)" sh mk/gpu.sh

gpu: gpu-build
	@if nvidia-smi -L >/dev/null 2>&1; then .gpu/run.sh .gpu/out; \
	else echo "make gpu: no GPU here. Carry .gpu/ and the tree to a GPU machine and run there:"; \
		echo "	.gpu/run.sh OUTDIR     (then copy OUTDIR/gpu-report.md to docs/gpu-report.md)"; fi

# downstream runs the README's recipe in a copy of examples/downstream
# outside this tree, offline from an empty cache, across an upgrade from
# set 12.4 to 12.5 (mk/downstream.sh).
downstream: deps
	@sh mk/downstream.sh

# deps-DEBS installs the Debian packages a test needs, if missing.
deps-%:
	@missing=; for p in $($*_DEBS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then echo "make deps-$*: installing$$missing"; \
		$(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q --no-install-recommends $$missing; fi

# test-arm64 runs ffiimpl's ABI conformance tests for linux/arm64 under qemu-user
# (AAPCS64: register classes, HFAs, by-reference structs, struct returns),
# and the generated wrappers' (emit/internal/abitest) against the same
# fixture library cross-compiled for arm64.
# CUGEN_EMULATED tells the tests that start a child process to skip: under
# qemu-user a Go child's clone can deadlock (seen: TestRunLockedTestFatal's
# child stuck in a futex wait until the 10-minute test timeout).
arm64_DEBS ?= qemu-user-static gcc-aarch64-linux-gnu libc6-dev-arm64-cross
QEMU = CUGEN_EMULATED=qemu GOARCH=arm64 CC=aarch64-linux-gnu-gcc $(GO) test -count=1 -vet=off -exec 'qemu-aarch64-static -L /usr/aarch64-linux-gnu'
test-arm64: deps-arm64
	$(QEMU) ./ffi/...
	CGO_ENABLED=0 $(QEMU) ./ffi/... ./emit/internal/abitest/...

# test-windows runs ffi's, ffiimpl's and the generated wrappers' tests, the
# stand-in driver's and runtime's, cugen doctor and the layer's tests as
# windows/amd64 programs under Debian's wine64 (mk/test-windows.sh).
windows_DEBS ?= wine64 gcc-mingw-w64-x86-64
export WINE ?= /usr/lib/wine/wine64
export WINESERVER ?= /usr/lib/wine/wineserver
export MINGW ?= x86_64-w64-mingw32-gcc-posix
# LAYER: the layer's tests that cannot run under wine (mk/test-windows.sh).
export WINDOWS_LAYER_SKIP ?= ^(TestFindDeviceRuntime|TestMathScalarsAligned|TestDriverSeam|TestIPCHandleBounds|TestIPCHandleMisaligned)$$
test-windows: deps-windows
	@bash mk/test-windows.sh

# bench runs the benchmarks that need no GPU (the GPU ones skip; see
# BENCHMARKS.md for the H200 run).
bench: deps
	@set -e; eval "$$($(CUGEN) libs -env -major 12)"; \
	CGO_ENABLED=1 $(GO) test -run '^$$' -bench . -benchmem ./parser ./emit ./ffi/... ./e2e
