# Two commands do all set-up on a fresh Debian 12 machine:
#   make run   - install missing packages, build Release, solve and show the seed puzzles
#   make test  - the same install and build, then the whole test suite through ctest, then
#                the suite again under AddressSanitizer + UndefinedBehaviorSanitizer, the
#                parallel parts under ThreadSanitizer, and every fuzz harness on its corpus
#                plus a short bounded run
.PHONY: all deps configure build run test sanitize tsan bench fuzz fuzz-ci clean
PRESET ?= release
BIN := build/$(PRESET)/tansaku

all: build

deps:
	@bash scripts/install-deps.sh

configure: deps
	@cmake --preset $(PRESET) >/dev/null

build: configure
	@cmake --build --preset $(PRESET)

run: build
	@bash scripts/demo.sh $(BIN)

test: build
	@ctest --preset $(PRESET)
	@$(MAKE) --no-print-directory sanitize
	@$(MAKE) --no-print-directory tsan
	@$(MAKE) --no-print-directory fuzz-ci

# The suite under ASan + UBSan (-O1; the few tests that take minutes even in Release are
# left to the Release run): any finding fails the test.
sanitize: deps
	@cmake --preset asan >/dev/null
	@cmake --build --preset asan
	@ctest --preset asan

# The parallel parts (explore, parallel searches and counts, pattern-database builds) under
# ThreadSanitizer, against a TSan-built copy of Debian's oneTBB (scripts/build-tsan-tbb.sh).
tsan: deps
	@bash scripts/build-tsan-tbb.sh
	@cmake --preset tsan >/dev/null
	@cmake --build --preset tsan
	@ctest --preset tsan

bench: build
	@$(BIN) bench

# libFuzzer harnesses (fuzz/), built with clang in build/fuzz, each run FUZZ_SECONDS.
FUZZ_SECONDS ?= 60
fuzz:
	@bash scripts/install-fuzz-deps.sh
	@FUZZ_SECONDS=$(FUZZ_SECONDS) bash scripts/fuzz.sh

fuzz-ci:
	@bash scripts/install-fuzz-deps.sh
	@bash scripts/fuzz.sh --ci

clean:
	rm -rf build
