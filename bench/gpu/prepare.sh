#!/bin/sh
# Builds what bench/gpu/h200.sh needs but does not build (the bare timestamp
# harness, the floor kernels' SPIR-V and, with nvcc, the CUDA twins, in
# BUILD/bench) and copies the tree
# a GPU machine runs into DEST: build/clockwork, build/bench, bench/,
# examples/.  Usage: sh bench/gpu/prepare.sh [BUILD] [DEST]
set -eu
BUILD=${1:-build}
DEST=${2:-.dev}
B=$BUILD/bench
mkdir -p "$B"
${CC:-cc} -std=c11 -O2 -Wall -Wextra -o "$B/tsbare" bench/gpu/tsbare.c -lvulkan
glslc -fshader-stage=comp bench/gpu/kernels/empty.comp -o "$B/empty.spv"
glslc -fshader-stage=comp bench/accuracy/kernels/copy.comp -o "$B/copy.spv"
# the CUDA twins (bench/gpu/twins.sh), where this machine has nvcc
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ -x "$NVCC" ]; then
    "$NVCC" -O2 -arch=sm_90 -o "$B/twins" bench/gpu/twins/twins.cu
fi
rm -rf "$DEST"
mkdir -p "$DEST/build/bench"
cp "$BUILD/clockwork" "$DEST/build/"
cp "$B/tsbare" "$B/empty.spv" "$B/copy.spv" "$DEST/build/bench/"
[ -x "$B/twins" ] && cp "$B/twins" "$DEST/build/bench/"
cp -r bench examples "$DEST/"
git log -1 --format='%h %s' > "$DEST/COMMIT" 2>/dev/null || true
git status --short | head -20 >> "$DEST/COMMIT" 2>/dev/null || true
echo "prepared $DEST ($(du -sh "$DEST" | cut -f1))"
