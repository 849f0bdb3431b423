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
                libyaml-cpp-dev libcsv-dev libtbb-dev zlib1g-dev libbenchmark-dev python3 \
                python3-dev pybind11-dev python3-matplotlib help2man
FUZZ_PACKAGES := clang libclang-rt-14-dev

.PHONY: all deps build demo test test-asan asan bench bench-deps fuzz fuzz-deps clean

all: build

# $(call install_missing,PACKAGES,WHAT): apt-get installs those of PACKAGES that dpkg does not list as
# installed (with sudo when not root); WHAT is added to the message.
define install_missing
@missing=""; for p in $(1); do \
  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
done; \
if [ -n "$$missing" ]; then \
  echo "installing Debian packages$(2):$$missing"; \
  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
fi
endef


deps:
	$(call install_missing,$(DEB_PACKAGES),)

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
	$(MAKE) --no-print-directory test-asan

# --- asan / test-asan: the whole ctest suite under AddressSanitizer + UndefinedBehaviorSanitizer ----
# RelWithDebInfo (-O2 -g): quick to run, stacks with lines; UB is fatal (-fno-sanitize-recover=all).
# LeakSanitizer needs ptrace-like rights some containers lack: probed first, left out (with a note) there.
ASAN_TYPE ?= RelWithDebInfo
ASAN_COMMON := abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1
UBSAN_ENV   := UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

$(ASAN_BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=$(ASAN_TYPE) -DGEMM_ADVISOR_SANITIZE=ON

asan: deps $(ASAN_BUILD)/CMakeCache.txt
	cmake --build $(ASAN_BUILD) -j $(JOBS)

test-asan: asan
	@leaks=1; probe=$$(ASAN_OPTIONS=detect_leaks=1 $(ASAN_BUILD)/apps/gemm-advisor/gemm-advisor --version 2>&1 >/dev/null); \
	case "$$probe" in *"LeakSanitizer has encountered a fatal error"*) leaks=0; \
	  echo "note: LeakSanitizer cannot run here (no ptrace?); the sanitizer tests go on without leak checks";; esac; \
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=$$leaks:$(ASAN_COMMON) $(UBSAN_ENV) ctest --output-on-failure -j $(JOBS)

# --- fuzz: every libFuzzer target for FUZZ_SECONDS each (tests/fuzz/run.sh; clang from Debian) -----
FUZZ_BUILD   ?= build-fuzz
FUZZ_SECONDS ?= 60

fuzz-deps:
	$(call install_missing,$(FUZZ_PACKAGES), for fuzz)

fuzz: deps fuzz-deps
	cmake -S . -B $(FUZZ_BUILD) -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DGEMM_ADVISOR_FUZZ=ON -DGEMM_ADVISOR_SANITIZE=ON -DBUILD_TESTING=OFF
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzzers
	tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD) build-bench

# --- bench: speed of the model and the CLI (README, "Speed") ---------------------------------------
# A Release build in $(BENCH_BUILD) with the Google Benchmark programs (-DGEMM_ADVISOR_BENCH=ON), then
# bench/run.sh, which times the CLI and writes its generated shape lists under $(BENCH_BUILD) only.
BENCH_BUILD    ?= build-bench
# Debian packages only `make bench` needs: GNU time (peak RSS), hyperfine (process wall time).
BENCH_PACKAGES := time hyperfine

bench-deps:
	$(call install_missing,$(BENCH_PACKAGES), for bench)

bench: deps bench-deps
	cmake -S . -B $(BENCH_BUILD) -DCMAKE_BUILD_TYPE=Release -DGEMM_ADVISOR_BENCH=ON -DBUILD_TESTING=OFF
	cmake --build $(BENCH_BUILD) -j $(JOBS) --target model_bench gemm-advisor
	$(BENCH_BUILD)/bench/model_bench
	bench/run.sh $(BENCH_BUILD)/apps/gemm-advisor/gemm-advisor $(BENCH_BUILD)
