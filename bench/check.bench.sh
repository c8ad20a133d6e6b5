#!/bin/sh
# Static analysis speed: reader + checks, SPIRV-Tools validation and the
# whole verifier per example kernel (target <= 10 ms, GLSL compilation
# excluded), and the whole analysis vs validation alone on generated
# modules of tens of thousands of instructions (target <= 1.5x).
BUILD=${1:-build}
mkdir -p "$BUILD/bench"
LIBS="$(pkg-config --libs vulkan jansson ncursesw capstone) -lpfm \
 -lshaderc_combined -Wl,--start-group -lglslang -lMachineIndependent \
 -lOSDependent -lOGLCompiler -lGenericCodeGen -lSPIRV -lSPIRV-Tools-opt \
 -lSPIRV-Tools -lglslang-default-resource-limits -Wl,--end-group \
 -lstdc++ -lm -lpthread -ldl"
${CC:-cc} -std=c11 -O2 -D_GNU_SOURCE -Icore -Iverifier -Icollectors -Itui \
    -Iinclude -o "$BUILD/bench/check_bench" bench/check_bench.c \
    "$BUILD/libclockwork.a" $LIBS || exit 1
"$BUILD/bench/check_bench" "${CHECK_BENCH_PLAN:-examples/plan.json}"
