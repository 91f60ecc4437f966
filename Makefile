# Three commands on a fresh Debian 12 machine (README "Set-up"):
#   make run    - install the program's packages if missing, build the `tansaku` program only,
#                 solve and show the seed puzzles (scripts/demo.sh)
#   make test   - install the test suite's packages if missing, build everything (Release),
#                 run the suite through ctest, less the few cases labelled `slow`
#   make check  - make test (in Release, the test programs that must run optimised: TEST_SUBSET),
#                 then the slow cases, packages made from the Release tree installed
#                 and run with the source tree hidden (check-package), the suite under AddressSanitizer +
#                 UndefinedBehaviorSanitizer, the parallel parts under ThreadSanitizer, and every
#                 fuzz harness on its corpus plus a short bounded run (CI: .ci/run)
#   make package - a portable build (build/package, TANSAKU_NATIVE=OFF) packed as a Debian
#                 package and a wheel for Debian's Python 3, both in dist/ (docs/install.md)
.PHONY: all deps test-deps check-deps package-deps program build run test test-slow package test-package check-package check sanitize tsan bench fuzz fuzz-ci clean
PRESET ?= release
BIN := build/$(PRESET)/tansaku
# ON (make check's Release tree): only the test programs whose cases must run optimised
# (tests/CMakeLists.txt, TANSAKU_TEST_SUBSET); the others run in make check's sanitizer tree.
TEST_SUBSET ?= OFF

all: build

# Every C++ line changed since scripts/format-base as .clang-format lays it out.
.PHONY: format-check
format-check:
	@bash scripts/check-format.sh

deps:
	@bash scripts/install-deps.sh

test-deps:
	@bash scripts/install-deps.sh --tests

check-deps:
	@bash scripts/install-deps.sh --check

package-deps:
	@bash scripts/install-deps.sh --package

# The program alone (the tests are configured only once GoogleTest is installed, and are
# not built here).
program: deps
	@cmake --preset $(PRESET) >/dev/null
	@cmake --build --preset $(PRESET) --target tansaku

build: test-deps
	@cmake --preset $(PRESET) -DTANSAKU_TEST_SUBSET=$(TEST_SUBSET) >/dev/null
	@cmake --build --preset $(PRESET)

run: program
	@bash scripts/demo.sh $(BIN)

test: build
	@ctest --preset $(PRESET)

# The cases that take most of a minute or more even in Release (ctest label `slow`).
test-slow: build
	@ctest --preset release-slow

# dist/tansaku_<version>_<arch>.deb (CPack, cmake/packaging.cmake) and
# dist/tansaku-<version>-<tag>.whl (python/CMakeLists.txt: the built module and the data).
package: package-deps
	@cmake --preset package >/dev/null
	@cmake --build --preset package
	@cmake --build --preset package --target package wheel

# The .deb unpacked and the wheel installed into a fresh venv, each run with the source and
# build trees hidden (tests/package_install.py).
test-package: package
	@ctest --preset package

# The same test on packages made from the Release tree (into build/release/dist, not dist/):
# what `make check` runs: it proves the packaging without another compile of the library
# (the x86-64 baseline code paths run in the sanitizer build, which is portable).
check-package: build
	@bash scripts/install-deps.sh --package
	@cmake --build --preset release --target package wheel >/dev/null
	@ctest --preset release-package

check: check-deps
	@bash scripts/check.sh

# The suite under ASan + UBSan (clang, -O1; the slow cases are left to the Release run): any
# finding fails the test. The same tree holds the libFuzzer harnesses that fuzz-ci runs.
sanitize: test-deps
	@bash scripts/install-fuzz-deps.sh
	@cmake --preset asan >/dev/null
	@cmake --build --preset asan
	@ctest --preset asan

# The parallel parts (explore, parallel searches and counts, pattern-database builds) under
# ThreadSanitizer, against a TSan-built copy of Debian's oneTBB (scripts/build-tsan-tbb.sh);
# only the test programs holding them are built (tests/CMakeLists.txt: tsan_tests).
tsan: check-deps
	@bash scripts/build-tsan-tbb.sh
	@cmake --preset tsan >/dev/null
	@cmake --build --preset tsan --target tsan_tests
	@ctest --preset tsan

bench: program
	@$(BIN) bench

# libFuzzer harnesses (fuzz/), built with clang in build/fuzz, each run FUZZ_SECONDS.
FUZZ_SECONDS ?= 60
fuzz:
	@bash scripts/install-fuzz-deps.sh
	@FUZZ_SECONDS=$(FUZZ_SECONDS) bash scripts/fuzz.sh

# The seed corpora and short bounded runs, with the harnesses of the asan tree (make sanitize).
fuzz-ci:
	@bash scripts/install-fuzz-deps.sh
	@cmake --preset asan >/dev/null
	@FUZZ_TREE=build/asan bash scripts/fuzz.sh --ci

clean:
	rm -rf build
