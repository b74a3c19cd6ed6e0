# cugen: generate Go bindings for the CUDA libraries: the driver and runtime
# APIs, NVRTC, nvJitLink, the math libraries, NVML, NCCL, NVVM, nvFatbin,
# CUPTI, cuFile, NVTX, nvJPEG, cuSOLVERMg and NPP (library/).
#
#	make generate   fetch the locked headers and regenerate every committed package
#	make check      regenerate in a temporary directory; fail listing stale files
#	make test       everything CI runs (fetches headers and Debian's CUDA libraries)
#	make quick      build, vet and the unit tests of set 12.4 (minutes; not CI's whole run)
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

.PHONY: generate generate13 generate-wheels wheels-from-ir check test quick bench downstream test-arm64 deps-arm64 test-windows deps-windows fuzz gpu gpu-build

# fuzz runs the parser's fuzz target for longer than CI does (FUZZTIME=10m),
# then the saved IR's (decoder, validator with emit), one at a time.
FUZZTIME ?= 5m
fuzz:
	$(GO) test -run '^$$' -fuzz=FuzzParse -fuzztime=$(FUZZTIME) ./parser
	$(GO) test -run '^$$' -fuzz=FuzzDecodeIR -fuzztime=$(FUZZTIME) ./parser/ir
	$(GO) test -run '^$$' -fuzz=FuzzGenerateIR -fuzztime=$(FUZZTIME) ./emit
	$(GO) test -run '^$$' -fuzz=FuzzMutateIR -fuzztime=$(FUZZTIME) ./emit

# The committed generated/cudaN/cuda, the layer with its tests, is written by
# cugen layer; gen writes a module's copy (no tests) unless -layer=false.
generate: deps
	@for set in $(GEN_SETS); do \
		major=$${set%%.*}; \
		$(CUGEN) gen -set $$set -out generated/cuda$$major -layer=false || exit 1; \
	done
	$(CUGEN) gen -ir $(IR13) -out generated/cuda13 -layer=false
	@$(MAKE) --no-print-directory wheels-from-ir
	$(CUGEN) layer

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

# check regenerates every Debian set into a temporary directory and compares
# it with the committed packages.
check: deps
	@tmp=$$(mktemp -d); trap 'rm -rf $$tmp' EXIT; \
	for set in $(GEN_SETS); do \
		major=$${set%%.*}; \
		$(CUGEN) gen -set $$set -out $$tmp/cuda$$major -importpath github.com/cugen/cugen/generated/cuda$$major >/dev/null || exit 1; \
		if ! diff -r -q -x .cugen.lock -x cuda -x cudnn -x cusparselt -x "ir-*.json.gz" generated/cuda$$major $$tmp/cuda$$major; then \
			echo "make check: generated/cuda$$major is stale: run make generate" >&2; exit 1; \
		fi; \
	done; \
	$(CUGEN) gen -ir $(IR13) -out $$tmp/cuda13 -importpath github.com/cugen/cugen/generated/cuda13 >/dev/null || exit 1; \
	if ! diff -r -q -x .cugen.lock -x cuda -x cudnn -x cusparselt -x ir.json.gz -x "ir-*.json.gz" generated/cuda13 $$tmp/cuda13; then \
		echo "make check: generated/cuda13 is stale: run make generate (from $(IR13))" >&2; exit 1; \
	fi; \
	for ml in $(WHEEL_LIBS); do \
		m=$${ml%%:*}; lib=$${ml#*:}; \
		$(CUGEN) gen -ir generated/cuda$$m/ir-$$lib.json.gz -lib $$lib -out $$tmp/w$$m$$lib -importpath github.com/cugen/cugen/generated/cuda$$m -layer=false >/dev/null || exit 1; \
		if ! diff -r -q generated/cuda$$m/$$lib $$tmp/w$$m$$lib/$$lib; then \
			echo "make check: generated/cuda$$m/$$lib is stale: run make generate (from generated/cuda$$m/ir-$$lib.json.gz)" >&2; exit 1; \
		fi; \
	done; echo "make check: generated/ is up to date"
	@$(CUGEN) layer -check
	@set -e; for set in $(BUILD_SETS); do \
		d=cuda$$(echo $$set | tr . _); rm -rf generated/_check/$$d; \
		$(CUGEN) gen -set $$set -out generated/_check/$$d -importpath github.com/cugen/cugen/generated/_check/$$d; \
		pkgs="./generated/_check/$$d/cu ./generated/_check/$$d/cudart"; \
		if [ -d generated/_check/$$d/cuda ]; then pkgs="$$pkgs ./generated/_check/$$d/cuda/..."; fi; \
		$(GO) vet $$pkgs; \
		GOARCH=arm64 CGO_ENABLED=0 $(GO) build $$pkgs; \
	done; rm -rf generated/_check
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "make check: gofmt" >&2; exit 1; }
	$(GO) vet ./...
	GOARCH=arm64 $(GO) vet ./...
	CGO_ENABLED=0 GOARCH=arm64 $(GO) build ./...
	@# the generator runs wherever Go does (go generate on a Mac); the
	@# generated packages are for linux/amd64 and linux/arm64
	GOOS=darwin GOARCH=arm64 $(GO) build -o /dev/null ./cmd/cugen
	@# windows/amd64 (issue 31): everything builds and vets, tests included
	@# (tests of Linux-only syscalls carry build constraints: issue 37)
	GOOS=windows GOARCH=amd64 $(GO) build ./...
	GOOS=windows GOARCH=amd64 $(GO) vet ./...

# Test environment: the locked headers and Debian's real libcuda/libcudart
# (they load without a GPU), found through these variables. libcuda's
# directory stays off LD_LIBRARY_PATH (CUGEN_LIBCUDA names the file; the
# runtime is handed that copy): nvJitLink 12.4 opens libcuda.so.1 itself
# when it finds one, and a driver without a device makes nvJitLinkCreate
# fail with NVJITLINK_ERROR_INTERNAL.
# LIBENV is that setup as a shell fragment: the directories of Debian's
# libraries (fetched into the cache) and the variables that name them.
LIBENV = cudart=$$($(CUGEN) libs -lib libcudart12); cuda=$$($(CUGEN) libs -lib libcuda1); \
	nvrtc=$$($(CUGEN) libs -lib libnvrtc12); builtins=$$($(CUGEN) libs -lib libnvrtc-builtins12.4); \
	jitlink=$$($(CUGEN) libs -lib libnvjitlink12); \
	cublas=$$($(CUGEN) libs -lib libcublas12); cublaslt=$$($(CUGEN) libs -lib libcublaslt12); \
	curand=$$($(CUGEN) libs -lib libcurand10); cufft=$$($(CUGEN) libs -lib libcufft11); \
	cusparse=$$($(CUGEN) libs -lib libcusparse12); cusolver=$$($(CUGEN) libs -lib libcusolver11); \
	nvml=$$($(CUGEN) libs -lib libnvidia-ml1); nccl=$$($(CUGEN) libs -lib libnccl2); \
	nvvm=$$($(CUGEN) libs -lib libnvvm4); nvfatbin=$$($(CUGEN) libs -lib libnvfatbin12); \
	cupti=$$($(CUGEN) libs -lib libcupti12); cufile=$$($(CUGEN) libs -lib libcufile0); \
	nvtx=$$($(CUGEN) libs -lib libnvtoolsext1); nvjpeg=$$($(CUGEN) libs -lib libnvjpeg12); \
	cusolvermg=$$($(CUGEN) libs -lib libcusolvermg11); nppc=$$($(CUGEN) libs -lib libnppc12); \
	for l in nppial nppicc nppidei nppif nppig nppim nppist nppisu nppitc npps; do \
		d=$$($(CUGEN) libs -lib lib$${l}12); export CUGEN_LIB$$(echo $$l | tr a-z A-Z)="$$d/lib$$l.so.12"; done; \
	export CUGEN_TEST_LIBDIRS="$$cudart:$$cuda"; \
	export CUGEN_LIBCUDA="$$cuda/libcuda.so.1" CUGEN_LIBCUDART="$$cudart/libcudart.so.12" CUGEN_REQUIRE_ALL_SYMBOLS=1; \
	export CUGEN_LIBNVRTC="$$nvrtc/libnvrtc.so.12" CUGEN_LIBNVJITLINK="$$jitlink/libnvJitLink.so.12"; \
	export CUGEN_LIBCUBLAS="$$cublas/libcublas.so.12" CUGEN_LIBCUBLASLT="$$cublaslt/libcublasLt.so.12"; \
	export CUGEN_LIBCURAND="$$curand/libcurand.so.10" CUGEN_LIBCUFFT="$$cufft/libcufft.so.11"; \
	export CUGEN_LIBCUSPARSE="$$cusparse/libcusparse.so.12" CUGEN_LIBCUSOLVER="$$cusolver/libcusolver.so.11"; \
	export CUGEN_LIBNVML="$$nvml/libnvidia-ml.so.1" CUGEN_LIBNCCL="$$nccl/libnccl.so.2"; \
	export CUGEN_LIBNVVM="$$nvvm/libnvvm.so.4" CUGEN_LIBNVFATBIN="$$nvfatbin/libnvfatbin.so.12"; \
	export CUGEN_LIBCUPTI="$$cupti/libcupti.so.12" CUGEN_LIBCUFILE="$$cufile/libcufile.so.0"; \
	export CUGEN_LIBNVTX="$$nvtx/libnvToolsExt.so.1" CUGEN_LIBNVJPEG="$$nvjpeg/libnvjpeg.so.12"; \
	export CUGEN_LIBCUSOLVERMG="$$cusolvermg/libcusolverMg.so.11" CUGEN_LIBNPPC="$$nppc/libnppc.so.12"; \
	export LD_LIBRARY_PATH="$$cudart:$$builtins:$$cublas:$$cublaslt:$$cusparse:$$jitlink:$$nppc$${LD_LIBRARY_PATH:+:$$LD_LIBRARY_PATH}"

# The race run's emit tests generate the whole family several times
# under the race detector (about 10 minutes on 2 cores): its timeout is
# raised from go test's 10 minutes.
# test fetches every set first, so a set missing from the cache is a
# failure there (CUGEN_REQUIRE_HEADERS=1), and it runs the one test that
# asks Debian's archive through apt-get (CUGEN_TEST_APT=1).
test: deps
	@set -e; \
	for set in $(PARSE_SETS); do $(CUGEN) headers -set $$set >/dev/null; done; \
	$(LIBENV); \
	export CUGEN_REQUIRE_HEADERS=1 CUGEN_TEST_APT=1; \
	$(MAKE) --no-print-directory check; \
	CGO_ENABLED=0 $(GO) test -count=1 ./...; \
	CGO_ENABLED=1 $(GO) test -race -count=1 -timeout=30m ./ffi/... ./emit ./internal/genfiles ./reliability; \
	$(GO) test -run '^$$' -fuzz=FuzzParse -fuzztime=60s -fuzzminimizetime=5s ./parser; \
	$(MAKE) --no-print-directory downstream; \
	$(MAKE) --no-print-directory test-arm64; \
	$(MAKE) --no-print-directory test-windows

# quick is the edit-test loop: build, vet and the unit tests against set
# 12.4 and Debian's libraries, as make test sets them up, leaving out the
# 11.8 and 12.5 sets (CUGEN_TEST_SETS), make check's regeneration, the
# race and fuzz runs, downstream and arm64. A few minutes on a warm cache
# (6.4 min wall, 256 MB, on 2 cores shared at load 10-17).
quick: deps
	@set -e; $(CUGEN) headers -set 12.4 >/dev/null; \
	$(LIBENV); \
	export CUGEN_TEST_SETS=12.4 CUGEN_REQUIRE_HEADERS=1; \
	$(GO) build ./...; $(GO) vet ./...; \
	CGO_ENABLED=0 $(GO) test -count=1 ./...

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
# outside this tree, with no headers.lock of its own (cugen carries it),
# as its own CI would, across an upgrade: go generate (gen.go: go tool cugen
# gen -set 12.4 -lib cu,cudart,nvrtc -out cuda, with the Go layer), the
# check, vet and tests; then gen.go's -set 12.4 edited to 12.5: the check
# fails printing the API changes, go generate updates the bindings, and
# the check, vet and tests pass. Its go.mod's replace points at this
# checkout.
DOWNSTREAM_CHECK = $(GO) tool cugen gen -check -set $$set -lib cu,cudart,nvrtc -out cuda
downstream: deps
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf $$tmp' EXIT; log=$$tmp/check.log; \
	for f in $$(git ls-files examples/downstream); do cp $$f $$tmp/; done; \
	checkout=$$(pwd); cd $$tmp/; test ! -e headers.lock; \
	$(GO) mod edit -replace github.com/cugen/cugen=$$checkout; \
	set=12.4; $(GO) generate ./...; $(DOWNSTREAM_CHECK); \
	test -f cuda/cuda/rtc.go || { echo "make downstream: go generate wrote no layer (cuda/cuda)" >&2; exit 1; }; \
	$(GO) vet ./...; CGO_ENABLED=0 $(GO) test -count=1 ./...; \
	echo "make downstream: gen.go upgraded to set 12.5; the check must fail"; \
	sed -i 's/ -set 12\.4 / -set 12.5 /' gen.go; grep -q ' -set 12.5 ' gen.go; set=12.5; \
	if $(DOWNSTREAM_CHECK) >$$log 2>&1; then cat $$log; echo "make downstream: gen -check passed on stale bindings" >&2; exit 1; fi; \
	cat $$log; \
	for want in 'cugen: package cu: API changes (api.txt): ' '  + func cuCtxCreate_v4(' 'cugen: stale cu/funcs.go' 'cugen: gen -check: cuda is stale: '; do \
		grep -qF -- "$$want" $$log || { echo "make downstream: the failed check did not print '$$want'" >&2; exit 1; }; \
	done; \
	$(GO) generate ./...; $(DOWNSTREAM_CHECK); \
	$(GO) vet ./...; CGO_ENABLED=0 $(GO) test -count=1 ./...

# test-arm64 runs ffiimpl's ABI conformance tests for linux/arm64 under qemu-user
# (AAPCS64: register classes, HFAs, by-reference structs, struct returns),
# and the generated wrappers' (emit/internal/abitest) against the same
# fixture library cross-compiled for arm64.
ARM64_DEBS ?= qemu-user-static gcc-aarch64-linux-gnu libc6-dev-arm64-cross
deps-arm64:
	@missing=; for p in $(ARM64_DEBS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then echo "make deps-arm64: installing$$missing"; \
		$(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q --no-install-recommends $$missing; fi

# CUGEN_EMULATED tells the tests that start a child process to skip: under
# qemu-user a Go child's clone can deadlock (seen: TestRunLockedTestFatal's
# child stuck in a futex wait until the 10-minute test timeout).
test-arm64: deps-arm64
	CUGEN_EMULATED=qemu GOARCH=arm64 CC=aarch64-linux-gnu-gcc $(GO) test -count=1 -exec 'qemu-aarch64-static -L /usr/aarch64-linux-gnu' ./ffi/...
	CUGEN_EMULATED=qemu GOARCH=arm64 CGO_ENABLED=0 CC=aarch64-linux-gnu-gcc $(GO) test -count=1 -exec 'qemu-aarch64-static -L /usr/aarch64-linux-gnu' ./ffi/... ./emit/internal/abitest/...

# test-windows runs package ffi's portable tests (the Windows library
# search, RunLocked, Check), ffiimpl's ABI conformance tests (Frame,
# CallInts, callbacks) and the generated wrappers' (emit/internal/abitest:
# every argument class, struct results, callbacks from C threads) as
# windows/amd64 test binaries under Debian's wine64 8.0, against their
# fixtures built as DLLs with mingw-w64 (CUGEN_FFI_TEST_LIB and
# CUGEN_ABI_FIXTURE name them). The wine prefix is a fresh temporary one;
# mk/wine/bcryptprimitives.c stands in for the system DLL wine 8.0 lacks
# and the Go runtime loads at start (ProcessPrng).
# TestVetClean runs the go command, which cannot start under wine.
# cugentest's TestStandinContextDemo and TestStandinLayer run the generated
# cu package and the layer against cugentest/testdata/cudastandin.c built
# as nvcuda.dll, which the Windows search finds beside the test binary
# (CUGEN_STANDIN_DRIVER=search: CUGEN_LIBCUDA is unset for them); both
# must pass, not skip. The generated cudart package's context demo
# (TestContextDemo, TestContextPerThread: examples/contextdemo's steps)
# runs on it and cugentest/testdata/cudartstandin.c built as
# cudart64_12.dll beside it. cugen doctor (cugen.exe) runs beside them,
# reporting its device, and in a directory without it, where the driver
# is an error with the advice.
WINDOWS_DEBS ?= wine64 gcc-mingw-w64-x86-64
WINE ?= /usr/lib/wine/wine64
# The layer's (package cuda's) tests run on its fake driver, those that
# need a driver skipping; three are left out: TestFindDeviceRuntime
# passes but wine 8.0 cannot remove its temporary directory ("Invalid
# function"), TestMathScalarsAligned reads the layer's source beside the
# test binary, and TestIPCHandleBounds makes an IPC pool, which Windows
# refuses (a POSIX descriptor).
WINDOWS_LAYER_SKIP ?= ^(TestFindDeviceRuntime|TestMathScalarsAligned|TestIPCHandleBounds)$$
# The wine server outlives the last program by seconds, writing to the
# prefix: it is stopped before the prefix is removed.
WINESERVER ?= /usr/lib/wine/wineserver
MINGW ?= x86_64-w64-mingw32-gcc-posix
deps-windows:
	@missing=; for p in $(WINDOWS_DEBS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then echo "make deps-windows: installing$$missing"; \
		$(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q --no-install-recommends $$missing; fi

test-windows: deps-windows
	@set -e; tmp=$$(mktemp -d); trap 'WINEPREFIX=$$tmp/prefix $(WINESERVER) -k 2>/dev/null; rm -rf $$tmp' EXIT; \
	$(MINGW) -shared -static -O1 -o $$tmp/ffiabi.dll ffi/ffiimpl/testdata/abi.c -lpthread; \
	$(MINGW) -shared -static -O1 -o $$tmp/abi.dll emit/testdata/abi/abi.c -lpthread; \
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $(GO) test -c -o $$tmp/ffi.exe ./ffi; \
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $(GO) test -c -o $$tmp/ffiimpl.exe ./ffi/ffiimpl; \
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $(GO) test -c -o $$tmp/abitest.exe ./emit/internal/abitest; \
	mkdir $$tmp/standin; $(MINGW) -shared -static -O1 -o $$tmp/standin/nvcuda.dll cugentest/testdata/cudastandin.c; \
	$(MINGW) -shared -static -O1 -o $$tmp/standin/cudart64_12.dll cugentest/testdata/cudartstandin.c $$tmp/standin/nvcuda.dll; \
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $(GO) test -c -o $$tmp/standin/cugentest.exe ./cugentest; \
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $(GO) test -c -o $$tmp/standin/cudart.exe ./generated/cuda12/cudart; \
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $(GO) test -c -o $$tmp/layer.exe ./layer; \
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $(GO) build -o $$tmp/standin/cugen.exe ./cmd/cugen; cp $$tmp/standin/cugen.exe $$tmp/cugen.exe; \
	export WINEPREFIX=$$tmp/prefix WINEDEBUG=-all; \
	$(WINE) wineboot -i >/dev/null 2>&1; \
	$(MINGW) -shared -O1 -o $$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll mk/wine/bcryptprimitives.c -ladvapi32; \
	win() { printf 'Z:%s' "$$1" | tr / '\\'; }; cd $$tmp; \
	echo "make test-windows: ffi under wine"; \
	$(WINE) ./ffi.exe -test.count=1 -test.v >$$tmp/ffi.log 2>&1 || { cat $$tmp/ffi.log; exit 1; }; \
	grep -E '^(--- |ok|PASS|FAIL)' $$tmp/ffi.log; \
	echo "make test-windows: ffi/ffiimpl under wine"; \
	CUGEN_FFI_TEST_LIB="$$(win $$tmp/ffiabi.dll)" \
		$(WINE) ./ffiimpl.exe -test.count=1 -test.v >$$tmp/ffiimpl.log 2>&1 || { cat $$tmp/ffiimpl.log; exit 1; }; \
	grep -E '^(--- |ok|PASS|FAIL)' $$tmp/ffiimpl.log; \
	echo "make test-windows: emit/internal/abitest under wine"; \
	CUGEN_ABI_FIXTURE="$$(win $$tmp/abi.dll)" \
		$(WINE) ./abitest.exe -test.count=1 -test.skip '^TestVetClean$$' -test.v >$$tmp/abitest.log 2>&1 || { cat $$tmp/abitest.log; exit 1; }; \
	grep -E '^(--- |ok|PASS|FAIL)' $$tmp/abitest.log; \
	echo "make test-windows: the stand-in nvcuda.dll under wine (cugentest TestStandin*)"; \
	CUGEN_STANDIN_DRIVER=search $(WINE) standin/cugentest.exe -test.count=1 -test.run '^TestStandin' -test.v >$$tmp/standin.log 2>&1 || { cat $$tmp/standin.log; exit 1; }; \
	grep -E '^(--- |ok|PASS|FAIL)' $$tmp/standin.log; \
	for t in TestStandinContextDemo TestStandinLayer; do \
		grep -q -- "^--- PASS: $$t " $$tmp/standin.log || { cat $$tmp/standin.log; echo "make test-windows: $$t did not pass" >&2; exit 1; }; \
	done; \
	echo "make test-windows: the context demo (cuda12/cudart) on the stand-in nvcuda.dll and cudart64_12.dll under wine"; \
	CUGEN_LIBCUDA= CUGEN_LIBCUDART= $(WINE) standin/cudart.exe -test.count=1 -test.run '^TestContext(Demo|PerThread)$$' -test.v >$$tmp/cudart.log 2>&1 || { cat $$tmp/cudart.log; exit 1; }; \
	grep -E '^(--- |ok|PASS|FAIL)' $$tmp/cudart.log; \
	for t in TestContextDemo TestContextPerThread; do \
		grep -q -- "^--- PASS: $$t " $$tmp/cudart.log || { cat $$tmp/cudart.log; echo "make test-windows: $$t did not pass" >&2; exit 1; }; \
	done; \
	echo "make test-windows: cugen doctor under wine, with the stand-in nvcuda.dll beside it and without"; \
	CUGEN_LIBCUDA= $(WINE) standin/cugen.exe doctor -major 12 -lib driver >$$tmp/doctor.log 2>&1 || { cat $$tmp/doctor.log; exit 1; }; \
	for want in 'driver: CUDA driver: .*nvcuda\.dll$$' 'driver: version: CUDA 12\.4 ' 'driver: device 0: cugen stand-in GPU' '^ok: no problems found'; do \
		grep -qE "$$want" $$tmp/doctor.log || { cat $$tmp/doctor.log; echo "make test-windows: cugen doctor did not print $$want" >&2; exit 1; }; \
	done; \
	if CUGEN_LIBCUDA= $(WINE) ./cugen.exe doctor -major 12 -lib driver >$$tmp/doctor0.log 2>&1; then cat $$tmp/doctor0.log; echo "make test-windows: cugen doctor passed with no driver" >&2; exit 1; fi; \
	grep -q '^error: driver: nvcuda.dll not found: install the NVIDIA driver' $$tmp/doctor0.log || { cat $$tmp/doctor0.log; exit 1; }; \
	grep -hE '^(driver: device|ok|error)' $$tmp/doctor.log $$tmp/doctor0.log; \
	echo "make test-windows: the layer's tests on its fake driver under wine"; \
	CUGEN_LIBCUDA= CUGEN_LIBNVRTC= $(WINE) ./layer.exe -test.count=1 -test.skip '$(WINDOWS_LAYER_SKIP)' -test.v >$$tmp/layer.log 2>&1 || { cat $$tmp/layer.log; exit 1; }; \
	echo "make test-windows: layer: $$(grep -c '^--- PASS' $$tmp/layer.log) passed, $$(grep -c '^--- SKIP' $$tmp/layer.log) skipped (no driver, NVRTC, go.mod or gcc under wine)"

# bench runs the benchmarks that need no GPU (the GPU ones skip; see
# BENCHMARKS.md for the H200 run).
bench: deps
	@set -e; cudart=$$($(CUGEN) libs -lib libcudart12); cuda=$$($(CUGEN) libs -lib libcuda1); \
	export CUGEN_LIBCUDA="$$cuda/libcuda.so.1" CUGEN_LIBCUDART="$$cudart/libcudart.so.12"; \
	export LD_LIBRARY_PATH="$$cuda:$$cudart$${LD_LIBRARY_PATH:+:$$LD_LIBRARY_PATH}"; \
	CGO_ENABLED=1 $(GO) test -run '^$$' -bench . -benchmem ./parser ./emit ./ffi/... ./e2e
