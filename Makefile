# Two commands do all set-up on a fresh Debian 12 machine:
#   make run   - install missing packages, build Release, solve and show the seed puzzles
#   make test  - the same install and build, then the whole test suite through ctest, then
#                the suite again under AddressSanitizer + UndefinedBehaviorSanitizer
.PHONY: all deps configure build run test sanitize tsan bench fuzz clean
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

# The suite under ASan + UBSan (-O1; the few tests that take minutes even in Release are
# left to the Release run): any finding fails the test.
sanitize: deps
	@cmake --preset asan >/dev/null
	@cmake --build --preset asan
	@ctest --preset asan

# The parallel parts (explore, parallel IDA*, pattern-database builds, the frontier dp)
# under ThreadSanitizer. Not part of `make test` (a third full build would not fit CI's time).
tsan: deps
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

clean:
	rm -rf build
