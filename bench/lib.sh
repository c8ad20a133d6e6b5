# Helpers for the bench scripts (sourced).  BUILD is the build folder ($1).
BUILD=${1:-build}
mkdir -p "$BUILD/bench"
LIBS="$(pkg-config --libs vulkan jansson ncursesw capstone) -lpfm \
 -lshaderc_combined -Wl,--start-group -lglslang -lMachineIndependent \
 -lOSDependent -lOGLCompiler -lGenericCodeGen -lSPIRV -lSPIRV-Tools-opt \
 -lSPIRV-Tools -lglslang-default-resource-limits -Wl,--end-group \
 -lstdc++ -lm -lpthread -ldl"
# bench_build NAME SOURCE [CFLAGS...]: $BUILD/bench/NAME from SOURCE linked
# with the whole library; the bench ends (exit 1) when it does not build.
bench_build() {
    name=$1; src=$2; shift 2
    ${CC:-cc} -std=c11 -O2 -D_GNU_SOURCE "$@" -Icore -Iverifier -Icollectors \
        -Itui -Iinclude -o "$BUILD/bench/$name" "$src" "$BUILD/libclockwork.a" \
        $LIBS || exit 1
}
