# Clockwork - plain Makefile.  `make` builds build/clockwork.
# `make run` / `make test` install missing Debian packages first (make deps).

CC      ?= cc
CFLAGS  ?= -O2 -g
PREFIX  ?= /usr/local
BUILD   ?= build
VERSION := 0.1.0

WARN := -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes \
        -Wmissing-prototypes -Wpointer-arith -Wformat=2 -Wno-format-nonliteral
ifeq ($(CI),true)
WARN += -Werror
endif

PKGS := vulkan jansson ncursesw capstone
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# shaderc: the link line that works on Debian 12 (docs: TECH notes in docs/build.md)
SHADERC_LIBS := -lshaderc_combined -Wl,--start-group -lglslang -lMachineIndependent \
        -lOSDependent -lOGLCompiler -lGenericCodeGen -lSPIRV -lSPIRV-Tools-opt \
        -lSPIRV-Tools -lglslang-default-resource-limits -Wl,--end-group
JANSSON_LIBS := $(shell pkg-config --libs jansson 2>/dev/null)
SYS_LIBS := -lstdc++ -lm -lpthread -ldl
LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lpfm $(SHADERC_LIBS) $(SYS_LIBS)

# Layers (docs/architecture.md, "Layers"): each folder is one archive and
# sees only its own headers and those of the layers below it:
#   core < verifier < collectors < app < tui,  and app/main.c (the program)
# on top of all.  An upward #include does not compile; tests/integration/
# layering.sh names it.  include/ is the public kernel ABI, seen by all.
LAYERS := core verifier collectors app tui
INC_core       := -Icore
INC_verifier   := $(INC_core) -Iverifier
INC_collectors := $(INC_verifier) -Icollectors
INC_app        := $(INC_collectors) -Iapp
INC_tui        := $(INC_app) -Itui
INC_program    := $(INC_tui)

CPPFLAGS += -D_GNU_SOURCE -DCW_VERSION=\"$(VERSION)\" -Iinclude $(PKG_CFLAGS)
ALL_CFLAGS = $(WARN) $(CFLAGS) $(CPPFLAGS) $(EXTRA_CFLAGS)
ALL_LDFLAGS = $(LDFLAGS) $(EXTRA_LDFLAGS)

MAIN_SRC := app/main.c
layer_src = $(filter-out $(MAIN_SRC),$(wildcard $(1)/*.c)) $(wildcard $(1)/*.cpp)
layer_obj = $(patsubst %,$(BUILD)/obj/%.o,$(basename $(call layer_src,$(1))))
$(foreach l,$(LAYERS),$(eval OBJ_$(l) := $(call layer_obj,$(l))))
LIB_OBJ  := $(foreach l,$(LAYERS),$(OBJ_$(l)))
MAIN_OBJ := $(BUILD)/obj/app/main.o
# top layer first: a static archive resolves only what the ones before it use
ARCHIVES := $(foreach l,tui app collectors verifier core,$(BUILD)/lib/libcw_$(l).a)
TEST_SRC := $(wildcard tests/unit/test_*.c)
TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
EXAMPLE_LIBS := $(patsubst examples/cpu/%.c,$(BUILD)/examples/cpu/lib%.so,$(wildcard examples/cpu/*.c))

.PHONY: all deps run test check-unit check-integration asan bench accuracy fuzz \
        fuzzers install clean format examples

all: $(BUILD)/clockwork examples

# the layer of a source is its folder; app/main.c is the program
layer_inc = $(if $(filter $(MAIN_SRC),$(1)),$(INC_program),$(INC_$(firstword $(subst /, ,$(1)))))

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(call layer_inc,$<) -MMD -MP -c $< -o $@

CXX ?= c++
CXX_WARN := -std=c++17 -Wall -Wextra -Wshadow
ifeq ($(CI),true)
CXX_WARN += -Werror
endif
$(BUILD)/obj/%.o: %.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CXX_WARN) -O2 -g $(CPPFLAGS) $(call layer_inc,$<) -MMD -MP -c $< -o $@

define layer_archive
$(BUILD)/lib/libcw_$(1).a: $(OBJ_$(1))
	@mkdir -p $$(dir $$@)
	@rm -f $$@
	ar rcs $$@ $$^
endef
$(foreach l,$(LAYERS),$(eval $(call layer_archive,$(l))))

$(BUILD)/clockwork: $(MAIN_OBJ) $(ARCHIVES)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $(MAIN_OBJ) $(ARCHIVES) $(LIBS)

# every test binary depends on the shared test headers (unit.h, the fixtures,
# the fuzz targets the regression replay runs)
$(BUILD)/tests/%: tests/unit/%.c $(wildcard tests/unit/*.h tests/fuzz/*.h) $(ARCHIVES)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(INC_program) $(ALL_LDFLAGS) -Itests/unit -o $@ $< $(ARCHIVES) \
	    $(shell pkg-config --libs cmocka) $(LIBS)

# Fuzz harnesses (tests/fuzz/fuzz_*.c) link only the layers and libraries
# of what they test: the SPIR-V harnesses no Vulkan, ncurses, libpfm4 or
# shaderc.  FUZZ_ENGINE is libFuzzer for `make fuzz` (tests/fuzz/run.sh);
# by default a plain driver that replays the files it is given
# (tests/fuzz/replay.c), which `make test` builds to check these link sets.
FUZZ_ENGINE ?= tests/fuzz/replay.c
FUZZ_LAYERS_spirv     := verifier core
FUZZ_LIBS_spirv       := $(JANSSON_LIBS) -lSPIRV-Tools-opt -lSPIRV-Tools $(SYS_LIBS)
FUZZ_LAYERS_spirv_mut := $(FUZZ_LAYERS_spirv)
FUZZ_LIBS_spirv_mut   := $(FUZZ_LIBS_spirv)
FUZZ_LAYERS_spirv_sem := $(FUZZ_LAYERS_spirv)
FUZZ_LIBS_spirv_sem   := $(FUZZ_LIBS_spirv)
FUZZ_LAYERS_plan      := core
FUZZ_LIBS_plan        := $(JANSSON_LIBS) $(SYS_LIBS)
FUZZ_LAYERS_profile   := core
FUZZ_LIBS_profile     := $(JANSSON_LIBS) $(SYS_LIBS)
FUZZ_LAYERS_report    := core
FUZZ_LIBS_report      := $(JANSSON_LIBS) $(SYS_LIBS)
FUZZ_LAYERS_theme     := tui core
FUZZ_LIBS_theme       := $(shell pkg-config --libs ncursesw 2>/dev/null) $(JANSSON_LIBS) $(SYS_LIBS)
FUZZ_LAYERS_elf       := verifier core
FUZZ_LIBS_elf         := $(shell pkg-config --libs capstone 2>/dev/null) $(JANSSON_LIBS) $(SYS_LIBS)
FUZZ_LAYERS_events    := collectors core
FUZZ_LIBS_events      := -lpfm $(JANSSON_LIBS) $(SYS_LIBS)
FUZZ_LAYERS_cpurun    := collectors core
FUZZ_LIBS_cpurun      := $(SYS_LIBS)
FUZZ_NAMES := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BIN := $(FUZZ_NAMES:%=$(BUILD)/fuzz/fuzz_%)

fuzzers: $(FUZZ_BIN)

.SECONDEXPANSION:
$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(wildcard tests/fuzz/*.h) $$(foreach l,$$(FUZZ_LAYERS_$$*),$(BUILD)/lib/libcw_$$(l).a)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(INC_program) -Itests/fuzz $(ALL_LDFLAGS) -o $@ $< \
	    $(FUZZ_ENGINE) \
	    $(foreach l,$(FUZZ_LAYERS_$*),$(BUILD)/lib/libcw_$(l).a) $(FUZZ_LIBS_$*)

# Native CPU example kernels (issue 8): each examples/cpu/X.c -> libX.so
$(BUILD)/examples/cpu/lib%.so: examples/cpu/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O2 -g -fPIC -shared -Iinclude $(CPU_KERNEL_CFLAGS_$*) -o $@ $< $(CPU_KERNEL_LIBS_$*)

examples: $(EXAMPLE_LIBS)

# the built-in profiles are these files (.incbin in core/profile_embed.c)
$(BUILD)/obj/core/profile_embed.o: profiles/h200.json profiles/lavapipe.json

-include $(wildcard examples/cpu/*.mk)
-include $(LIB_OBJ:.o=.d) $(MAIN_OBJ:.o=.d)

deps:
	@sh scripts/deps.sh

# Findings (1) and divergence (3) are what the examples are there to show:
# the deliberately buggy kernel and the naive SGEMM.
run: deps
	@$(MAKE) --no-print-directory all
	@$(BUILD)/clockwork examples/plan.json examples/cpu/plan.json; rc=$$?; \
	  [ $$rc -eq 0 ] || [ $$rc -eq 1 ] || [ $$rc -eq 3 ]

test: deps
	@$(MAKE) --no-print-directory all $(TEST_BIN) fuzzers
	@sh tests/run.sh $(BUILD)

# Sanitizer reports go to files (SANITIZER_LOG.PID) that tests/run.sh
# checks after every test: a report fails the test whatever status the
# process left (clockwork's abort handler turns a sanitizer's abort into
# exit 4, and run's supervised child's into a named crash) and wherever
# the test sent stderr.
SANITIZER_LOG = $(CURDIR)/build-asan/sanitizer/report
asan: deps
	@$(MAKE) --no-print-directory BUILD=build-asan CC=clang \
	  CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined" \
	  EXTRA_LDFLAGS="-fsanitize=address,undefined" all $(TEST_BIN:$(BUILD)/%=build-asan/%) \
	  $(FUZZ_BIN:$(BUILD)/%=build-asan/%)
	@rm -rf build-asan/sanitizer && mkdir -p build-asan/sanitizer
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:log_path=$(SANITIZER_LOG) \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:log_path=$(SANITIZER_LOG) \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp CW_SANITIZER_LOG=$(SANITIZER_LOG) \
	  sh tests/run.sh build-asan

bench: all
	@sh bench/run.sh $(BUILD)

accuracy: all
	@sh bench/accuracy.sh $(BUILD)

fuzz:
	@sh tests/fuzz/run.sh $(FUZZ_SECONDS)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/include \
	  $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/clockwork/themes
	install -m 755 $(BUILD)/clockwork $(DESTDIR)$(PREFIX)/bin/clockwork
	install -m 644 include/clockwork.h $(DESTDIR)$(PREFIX)/include/clockwork.h
	install -m 644 docs/clockwork.1 $(DESTDIR)$(PREFIX)/share/man/man1/clockwork.1
	install -m 644 themes/*.theme $(DESTDIR)$(PREFIX)/share/clockwork/themes/

format:
	clang-format -i $(wildcard app/*.[ch] core/*.[ch] verifier/*.[ch] collectors/*.[ch] tui/*.[ch])

clean:
	rm -rf build build-asan build-fuzz
