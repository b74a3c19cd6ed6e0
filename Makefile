# cugen: generate Go bindings for the CUDA driver and runtime APIs.
#
#	make generate   fetch the locked headers and regenerate every committed package
#	make check      regenerate in a temporary directory; fail listing stale files
#	make test       everything CI runs (fetches headers and Debian's CUDA libraries)
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

.PHONY: generate generate13 check test bench downstream test-arm64 deps-arm64 fuzz

# fuzz runs the parser's fuzz target for longer than CI does (FUZZTIME=10m),
# then the saved IR's (decoder, validator with emit), one at a time.
FUZZTIME ?= 5m
fuzz:
	$(GO) test -run '^$$' -fuzz=FuzzParse -fuzztime=$(FUZZTIME) ./parser
	$(GO) test -run '^$$' -fuzz=FuzzDecodeIR -fuzztime=$(FUZZTIME) ./parser/ir
	$(GO) test -run '^$$' -fuzz=FuzzGenerateIR -fuzztime=$(FUZZTIME) ./emit
	$(GO) test -run '^$$' -fuzz=FuzzMutateIR -fuzztime=$(FUZZTIME) ./emit

generate: deps
	@for set in $(GEN_SETS); do \
		major=$${set%%.*}; \
		$(CUGEN) gen -set $$set -out generated/cuda$$major || exit 1; \
	done
	$(CUGEN) gen -ir $(IR13) -out generated/cuda13
	$(CUGEN) layer

# generated/cuda13 comes from the CUDA 13.0 toolkit's headers, which Debian
# does not package: generate13 parses them (set 13.0 of headers.lock,
# verified in place; CUDA_HOME=/usr/local/cuda) into the committed IR, from
# which make generate and make check regenerate generated/cuda13 anywhere.
IR13 = generated/cuda13/ir.json.gz
generate13:
	@test -n "$(CUDA_HOME)" || { echo "make generate13: set CUDA_HOME to a CUDA 13.0 toolkit (its include directory is verified against set 13.0)" >&2; exit 1; }
	CUDA_HOME=$(CUDA_HOME) $(CUGEN) ir -set 13.0 -out $(IR13)
	$(CUGEN) gen -ir $(IR13) -out generated/cuda13

# check regenerates every Debian set into a temporary directory and compares
# it with the committed packages.
check: deps
	@tmp=$$(mktemp -d); trap 'rm -rf $$tmp' EXIT; \
	for set in $(GEN_SETS); do \
		major=$${set%%.*}; \
		$(CUGEN) gen -set $$set -out $$tmp/cuda$$major -importpath github.com/cugen/cugen/generated/cuda$$major >/dev/null || exit 1; \
		if ! diff -r -q -x .cugen.lock -x cuda generated/cuda$$major $$tmp/cuda$$major; then \
			echo "make check: generated/cuda$$major is stale: run make generate" >&2; exit 1; \
		fi; \
	done; \
	$(CUGEN) gen -ir $(IR13) -out $$tmp/cuda13 -importpath github.com/cugen/cugen/generated/cuda13 >/dev/null || exit 1; \
	if ! diff -r -q -x .cugen.lock -x cuda -x ir.json.gz generated/cuda13 $$tmp/cuda13; then \
		echo "make check: generated/cuda13 is stale: run make generate (from $(IR13))" >&2; exit 1; \
	fi; echo "make check: generated/ is up to date"
	@$(CUGEN) layer -check
	@set -e; for set in $(BUILD_SETS); do \
		d=cuda$$(echo $$set | tr . _); rm -rf generated/_check/$$d; \
		$(CUGEN) gen -set $$set -out generated/_check/$$d -importpath github.com/cugen/cugen/generated/_check/$$d; \
		$(GO) vet ./generated/_check/$$d/cu ./generated/_check/$$d/cudart; \
		GOARCH=arm64 CGO_ENABLED=0 $(GO) build ./generated/_check/$$d/cu ./generated/_check/$$d/cudart; \
	done; rm -rf generated/_check
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "make check: gofmt" >&2; exit 1; }
	$(GO) vet ./...
	GOARCH=arm64 $(GO) vet ./...
	CGO_ENABLED=0 GOARCH=arm64 $(GO) build ./...
	@# the generator runs wherever Go does (go generate on a Mac); the
	@# generated packages are for linux/amd64 and linux/arm64
	GOOS=darwin GOARCH=arm64 $(GO) build -o /dev/null ./cmd/cugen

# Test environment: the locked headers and Debian's real libcuda/libcudart
# (they load without a GPU), found through these variables. libcuda's
# directory stays off LD_LIBRARY_PATH (CUGEN_LIBCUDA names the file; the
# runtime is handed that copy): nvJitLink 12.4 opens libcuda.so.1 itself
# when it finds one, and a driver without a device makes nvJitLinkCreate
# fail with NVJITLINK_ERROR_INTERNAL.
test: deps
	@set -e; \
	for set in $(PARSE_SETS); do $(CUGEN) headers -set $$set >/dev/null; done; \
	cudart=$$($(CUGEN) libs -lib libcudart12); cuda=$$($(CUGEN) libs -lib libcuda1); \
	nvrtc=$$($(CUGEN) libs -lib libnvrtc12); builtins=$$($(CUGEN) libs -lib libnvrtc-builtins12.4); \
	jitlink=$$($(CUGEN) libs -lib libnvjitlink12); \
	cublas=$$($(CUGEN) libs -lib libcublas12); cublaslt=$$($(CUGEN) libs -lib libcublaslt12); \
	curand=$$($(CUGEN) libs -lib libcurand10); cufft=$$($(CUGEN) libs -lib libcufft11); \
	cusparse=$$($(CUGEN) libs -lib libcusparse12); cusolver=$$($(CUGEN) libs -lib libcusolver11); \
	nvml=$$($(CUGEN) libs -lib libnvidia-ml1); nccl=$$($(CUGEN) libs -lib libnccl2); \
	export CUGEN_TEST_LIBDIRS="$$cudart:$$cuda"; \
	export CUGEN_LIBCUDA="$$cuda/libcuda.so.1" CUGEN_LIBCUDART="$$cudart/libcudart.so.12" CUGEN_REQUIRE_ALL_SYMBOLS=1; \
	export CUGEN_LIBNVRTC="$$nvrtc/libnvrtc.so.12" CUGEN_LIBNVJITLINK="$$jitlink/libnvJitLink.so.12"; \
	export CUGEN_LIBCUBLAS="$$cublas/libcublas.so.12" CUGEN_LIBCUBLASLT="$$cublaslt/libcublasLt.so.12"; \
	export CUGEN_LIBCURAND="$$curand/libcurand.so.10" CUGEN_LIBCUFFT="$$cufft/libcufft.so.11"; \
	export CUGEN_LIBCUSPARSE="$$cusparse/libcusparse.so.12" CUGEN_LIBCUSOLVER="$$cusolver/libcusolver.so.11"; \
	export CUGEN_LIBNVML="$$nvml/libnvidia-ml.so.1" CUGEN_LIBNCCL="$$nccl/libnccl.so.2"; \
	export LD_LIBRARY_PATH="$$cudart:$$builtins:$$cublas:$$cublaslt:$$cusparse:$$jitlink$${LD_LIBRARY_PATH:+:$$LD_LIBRARY_PATH}"; \
	$(MAKE) --no-print-directory check; \
	CGO_ENABLED=0 $(GO) test -count=1 ./...; \
	CGO_ENABLED=1 $(GO) test -race -count=1 ./ffi/... ./emit ./reliability; \
	$(GO) test -run '^$$' -fuzz=FuzzParse -fuzztime=60s -fuzzminimizetime=5s ./parser; \
	$(MAKE) --no-print-directory downstream; \
	$(MAKE) --no-print-directory test-arm64

# downstream runs examples/downstream as its own CI would, across a toolkit
# upgrade: bindings generated from the locked 12.4 headers (go generate),
# checked (cugen gen -check), vetted and tested; then the headers upgraded
# to 12.5: the check fails and prints the API changes, go generate updates
# the bindings, and the check, vet and tests pass.
DOWNSTREAM_CHECK = $(GO) tool cugen gen -check -headers $$CUDA_HEADERS -out cuda
downstream: deps
	@set -e; old=$$($(CUGEN) headers -set 12.4); new=$$($(CUGEN) headers -set 12.5); \
	log=$$(mktemp); trap 'rm -f $$log' EXIT; cd examples/downstream; \
	export CUDA_HEADERS=$$old; $(GO) generate ./...; $(DOWNSTREAM_CHECK); \
	$(GO) vet ./...; CGO_ENABLED=0 $(GO) test -count=1 ./...; \
	echo "make downstream: headers upgraded to 12.5; the check must fail"; export CUDA_HEADERS=$$new; \
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

# bench runs the benchmarks that need no GPU (the GPU ones skip; see
# BENCHMARKS.md for the H200 run).
bench: deps
	@set -e; cudart=$$($(CUGEN) libs -lib libcudart12); cuda=$$($(CUGEN) libs -lib libcuda1); \
	export CUGEN_LIBCUDA="$$cuda/libcuda.so.1" CUGEN_LIBCUDART="$$cudart/libcudart.so.12"; \
	export LD_LIBRARY_PATH="$$cuda:$$cudart$${LD_LIBRARY_PATH:+:$$LD_LIBRARY_PATH}"; \
	CGO_ENABLED=1 $(GO) test -run '^$$' -bench . -benchmem ./parser ./emit ./ffi/... ./e2e
