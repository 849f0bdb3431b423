# gemm-advisor: the two commands a new user runs first.
#   make demo   installs missing Debian packages, builds, ranks the Llama-3-8B layers on MI350X, B200, A100
#   make test   installs missing Debian packages, builds, runs every test through ctest
# Other targets: build, bench, fuzz, asan, clean.

BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_TYPE ?= Release
BIN        := $(BUILD)/apps/gemm-advisor/gemm-advisor

# Debian 12 packages the build needs (checked with dpkg, installed with apt-get only when missing).
DEB_PACKAGES := g++ make cmake libcli11-dev nlohmann-json3-dev libspdlog-dev libfmt-dev catch2 \
                libyaml-cpp-dev libcsv-dev libtbb-dev libbenchmark-dev python3
FUZZ_PACKAGES := clang libclang-rt-14-dev

.PHONY: all deps build demo test test-asan asan bench fuzz clean

all: build

deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=$(CMAKE_TYPE)

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	@for hw in mi350x b200 a100; do \
	  echo "== Llama-3-8B linear layers on $$hw (examples/llama3-8b.csv), top 3 per shape =="; \
	  $(BIN) batch examples/llama3-8b.csv --hw $$hw --top 3 --format table || exit 1; \
	done

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) build-fuzz build-bench
