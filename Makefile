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

include mk/headers.mk

.PHONY: generate check test bench vet fmt

generate: deps
	@for set in $(GEN_SETS); do \
		major=$${set%%.*}; \
		$(CUGEN) gen -set $$set -out generated/cuda$$major || exit 1; \
	done
	@echo "generated/cuda13 needs the CUDA 13.0 toolkit headers: make generate13 CUDA_HEADERS=/usr/local/cuda/include"

generate13:
	@test -n "$(CUDA_HEADERS)" || { echo "make generate13: set CUDA_HEADERS to a CUDA 13.0 include directory" >&2; exit 1; }
	$(CUGEN) gen -headers $(CUDA_HEADERS) -out generated/cuda13

# check regenerates every Debian set into a temporary directory and compares
# it with the committed packages.
check: deps
	@tmp=$$(mktemp -d); trap 'rm -rf $$tmp' EXIT; \
	for set in $(GEN_SETS); do \
		major=$${set%%.*}; \
		$(CUGEN) gen -set $$set -out $$tmp/cuda$$major -importpath github.com/cugen/cugen/generated/cuda$$major >/dev/null || exit 1; \
		if ! diff -r -q generated/cuda$$major $$tmp/cuda$$major; then \
			echo "make check: generated/cuda$$major is stale: run make generate" >&2; exit 1; \
		fi; \
	done; echo "make check: generated/ is up to date"
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "make check: gofmt" >&2; exit 1; }
	$(GO) vet ./...
	GOARCH=arm64 $(GO) vet ./...
	CGO_ENABLED=0 GOARCH=arm64 $(GO) build ./...

# Test environment: the locked headers and Debian's real libcuda/libcudart
# (they load without a GPU), found through these variables.
test: deps
	@set -e; \
	for set in $(PARSE_SETS); do $(CUGEN) headers -set $$set >/dev/null; done; \
	cudart=$$($(CUGEN) libs -lib libcudart12); cuda=$$($(CUGEN) libs -lib libcuda1); \
	export CUGEN_TEST_LIBDIRS="$$cudart:$$cuda"; \
	export CUGEN_LIBCUDA="$$cuda/libcuda.so.1" CUGEN_LIBCUDART="$$cudart/libcudart.so.12" CUGEN_REQUIRE_ALL_SYMBOLS=1; \
	export LD_LIBRARY_PATH="$$cuda:$$cudart$${LD_LIBRARY_PATH:+:$$LD_LIBRARY_PATH}"; \
	$(MAKE) --no-print-directory check; \
	CGO_ENABLED=0 $(GO) test -count=1 ./...

bench: deps
	$(GO) test -run '^$$' -bench . -benchmem ./parser ./emit ./ffi
