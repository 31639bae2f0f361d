#!/bin/sh
# Syntax- and type-check every SDK-style benchmark kernel with the host C++ compiler and the
# shim header next to this script. Exit status: the number of files that failed (0 = all pass).
dir=$(cd "$(dirname "$0")/.." && pwd)
fail=0
for f in "$dir"/*.cu; do
    if g++ -std=c++17 -fsyntax-only -Wall -Wno-unknown-pragmas -Wno-unused-variable \
        -include "$dir/tools/cuda_shim.h" -x c++ "$f"; then
        echo "ok   $(basename "$f")"
    else
        echo "FAIL $(basename "$f")"
        fail=$((fail + 1))
    fi
done
exit $fail
