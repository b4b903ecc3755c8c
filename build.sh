#!/bin/sh
# build.sh - one entry point for people and CI.
#
#   ./build.sh demo    build, then run ulockdep on the bundled examples (reports on stderr)
#   ./build.sh test    build, then run the whole test suite
#   ./build.sh build   build only (into ./build)
#
# Installs missing Debian packages first when run as root.
set -eu
cd "$(dirname "$0")"

BUILD_DIR=${ULD_BUILD_DIR:-build}
PACKAGES="build-essential cmake pkg-config g++ python3 libunwind-dev uthash-dev libcmocka-dev libdw-dev"

install_packages() {
    missing=""
    for p in $PACKAGES; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
    done
    [ -z "$missing" ] && return 0
    if [ "$(id -u)" -ne 0 ]; then
        echo "build.sh: missing packages:$missing (run as root, or: sudo apt-get install$missing)" >&2
        exit 1
    fi
    echo "build.sh: installing$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y --no-install-recommends $missing >/dev/null 2>&1 ||
        { apt-get update >/dev/null && apt-get install -y --no-install-recommends $missing; }
}

build() {
    install_packages
    cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    cmake --build "$BUILD_DIR" -j "$(nproc)"
}

demo() {
    stress="$BUILD_DIR/examples/uld_stress"
    if [ -x "$stress" ]; then
        echo "== hotplug/timer-wheel stress driver with every seeded bug, under ulockdep =="
        "$BUILD_DIR/tools/ulockdep" run -o exitcode=0 -- "$stress" --seconds 3 --bug all
        echo "== the same driver without seeded bugs: no report expected =="
        "$BUILD_DIR/tools/ulockdep" run -- "$stress" --seconds 3
    else
        echo "== an ABBA program under ulockdep =="
        "$BUILD_DIR/tools/ulockdep" run -o exitcode=0 -- "$BUILD_DIR/tests/progs/abba_threads"
    fi
}

case "${1:-build}" in
build) build ;;
demo) build && demo ;;
test) build && cd "$BUILD_DIR" && ctest --output-on-failure -j "$(nproc)" ;;
*) echo "usage: $0 [build|demo|test]" >&2; exit 2 ;;
esac
