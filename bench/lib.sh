# Helpers for the bench scripts (sourced).  BUILD is the build folder ($1).
BUILD=${1:-build}
mkdir -p "$BUILD/bench"
LIBS="$(pkg-config --libs vulkan jansson ncursesw capstone) -lpfm \
 -lshaderc_combined -Wl,--start-group -lglslang -lMachineIndependent \
 -lOSDependent -lOGLCompiler -lGenericCodeGen -lSPIRV -lSPIRV-Tools-opt \
 -lSPIRV-Tools -lglslang-default-resource-limits -Wl,--end-group \
 -lstdc++ -lm -lpthread -ldl"
# The layers' archives (Makefile ARCHIVES), top layer first, and their headers.
ARCHIVES="$BUILD/lib/libcw_tui.a $BUILD/lib/libcw_app.a $BUILD/lib/libcw_collectors.a \
 $BUILD/lib/libcw_verifier.a $BUILD/lib/libcw_core.a"
LAYER_INC="-Icore -Iverifier -Icollectors -Iapp -Itui -Iinclude"
# bench_build NAME SOURCE [CFLAGS...]: $BUILD/bench/NAME from SOURCE linked
# with the layers' archives; the bench ends (exit 1) when it does not build.
bench_build() {
    name=$1; src=$2; shift 2
    # shellcheck disable=SC2086
    ${CC:-cc} -std=c11 -O2 -D_GNU_SOURCE "$@" $LAYER_INC -o "$BUILD/bench/$name" "$src" \
        $ARCHIVES $LIBS || exit 1
}
