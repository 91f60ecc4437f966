#!/usr/bin/env bash
# ThreadSanitizer needs every library that hands work between threads instrumented: Debian's
# libtbb is not, so TSan reports a false race on every TBB task hand-off. This builds the very
# oneTBB source Debian ships (bookworm's onetbb 2021.8.0, checksum checked) with
# -fsanitize=thread into build/tsan-tbb/install, once; the `tsan` preset links against it.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=$PWD/build/tsan-tbb/install
[ -f "$prefix/lib/cmake/TBB/TBBConfig.cmake" ] && exit 0
version=2021.8.0
sha256=7e9111b8bb59c8800bf6d0b06afe7b0891937443d2dae1ee1101c8e2ede6a7ef
url=http://deb.debian.org/debian/pool/main/o/onetbb/onetbb_$version.orig.tar.xz
work=build/tsan-tbb
mkdir -p "$work"
tarball=$work/onetbb_$version.orig.tar.xz
if [ ! -f "$tarball" ]; then
  echo "downloading Debian's oneTBB $version source for the ThreadSanitizer build" >&2
  curl -fsSL --retry 3 -o "$tarball.part" "$url"
  mv "$tarball.part" "$tarball"
fi
echo "$sha256  $tarball" | sha256sum -c --quiet -
rm -rf "$work/src" "$work/build"
mkdir -p "$work/src"
tar xf "$tarball" -C "$work/src"
cmake -S "$work/src/oneTBB-$version" -B "$work/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTBB_TEST=OFF \
  -DTBB_SANITIZE=thread -DTBB_STRICT=OFF -DTBBMALLOC_BUILD=OFF -DCMAKE_INSTALL_PREFIX="$prefix" >/dev/null
cmake --build "$work/build" -j2 >"$work/build.log" 2>&1 || { tail -30 "$work/build.log" >&2; exit 1; }
cmake --install "$work/build" >/dev/null
rm -rf "$work/src" "$work/build"
