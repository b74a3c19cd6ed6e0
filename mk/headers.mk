# mk/headers.mk: NVIDIA headers and libraries, pinned by headers.lock and
# fetched into the cache (${CUGEN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cugen}),
# never into the repository. See the package doc of ./internal/lock.
#
#	make headers              fetch and verify header set $(CUDA), print its directory
#	make headers CUDA=11.8    another set in headers.lock (13.0: verified in place
#	                          in the toolkit, $CUDA_HOME or /usr/local/cuda)
#	make libs                 fetch and verify $(LIBS), print their directories
#	make deps                 apt-get install what fetching and testing need, if missing

CUDA ?= 12.4
LIBS ?= libcudart12 libcuda1
CUGEN ?= go run ./cmd/cugen

# Debian packages the fetch and the tests need beyond a base system (which
# has apt, dpkg with dpkg-deb, and tar): gcc, because every parse asks the
# host C compiler for its predefined macros and include directories (cc/v4's
# NewConfig: $CC, cc or gcc) and the tests build C fixtures and run cgo; the
# archive keyring for the private apt source.
DEPS_DEBS ?= gcc debian-archive-keyring
SUDO ?= $(if $(filter 0,$(shell id -u)),,sudo)

.PHONY: headers libs deps

headers:
	$(CUGEN) headers -set $(CUDA)

libs:
	@for lib in $(LIBS); do $(CUGEN) libs -lib $$lib || exit 1; done

deps:
	@command -v dpkg-query >/dev/null || { echo "make deps: needs a Debian-like system (dpkg, apt)" >&2; exit 1; }
	@missing=; for p in $(DEPS_DEBS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "make deps: installing$$missing"; \
		$(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q --no-install-recommends $$missing; \
	else \
		echo "make deps: $(DEPS_DEBS) already installed"; \
	fi
