# Two commands do all set-up on a fresh Debian 12 machine:
#   make run   - install missing packages, build Release, solve and show the seed puzzles
#   make test  - the same install and build, then the whole test suite through ctest
.PHONY: all deps configure build run test bench fuzz clean
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

bench: build
	@$(BIN) bench

# libFuzzer harnesses (fuzz/), built with clang in build/fuzz, each run FUZZ_SECONDS.
FUZZ_SECONDS ?= 60
fuzz:
	@bash scripts/install-fuzz-deps.sh
	@FUZZ_SECONDS=$(FUZZ_SECONDS) bash scripts/fuzz.sh

clean:
	rm -rf build
