#!/bin/sh
# Builds host_run.cpp (the kernels executed on host threads, see cuda_exec.h) and runs it.
# The kernels are compiled from copies in which `extern __shared__ int __smem[];` becomes
# `using ::__smem;` (the host's backing array: a namespace-scope extern would not link).
set -e
dir=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/sdk_kernels"
for f in "$dir"/../*.cu; do
    sed 's/extern __shared__ int __smem\[\];/using ::__smem;/' "$f" > "$work/sdk_kernels/$(basename "$f")"
done
g++ -std=c++20 -O1 -pthread -Wno-unknown-pragmas -I"$work" -o "$work/host_run" "$dir/host_run.cpp"
"$work/host_run"
