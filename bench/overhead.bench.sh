#!/bin/sh
# Measurement overhead: host time per sample of clockwork's runner
# (timestamps + pipeline statistics + counters + the stop rule) against a
# bare submit-and-wait loop of the same dispatch, on the default device.
BUILD=${1:-build}
mkdir -p "$BUILD/bench"
LIBS="$(pkg-config --libs vulkan jansson ncursesw capstone) -lpfm \
 -lshaderc_combined -Wl,--start-group -lglslang -lMachineIndependent \
 -lOSDependent -lOGLCompiler -lGenericCodeGen -lSPIRV -lSPIRV-Tools-opt \
 -lSPIRV-Tools -lglslang-default-resource-limits -Wl,--end-group \
 -lstdc++ -lm -lpthread -ldl"
${CC:-cc} -std=c11 -O2 -D_GNU_SOURCE -Icore -Iverifier -Icollectors -Itui \
    -Iinclude -o "$BUILD/bench/overhead" bench/overhead.c \
    "$BUILD/libclockwork.a" $LIBS || exit 1
"$BUILD/bench/overhead"
