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
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
# shaderc: the link line that works on Debian 12 (docs: TECH notes in docs/build.md)
SHADERC_LIBS := -lshaderc_combined -Wl,--start-group -lglslang -lMachineIndependent \
        -lOSDependent -lOGLCompiler -lGenericCodeGen -lSPIRV -lSPIRV-Tools-opt \
        -lSPIRV-Tools -lglslang-default-resource-limits -Wl,--end-group
LIBS := $(PKG_LIBS) -lpfm $(SHADERC_LIBS) -lstdc++ -lm -lpthread -ldl

CPPFLAGS += -D_GNU_SOURCE -DCW_VERSION=\"$(VERSION)\" -Icore -Iverifier \
            -Icollectors -Itui -Iapp -Iinclude $(PKG_CFLAGS)
ALL_CFLAGS = $(WARN) $(CFLAGS) $(CPPFLAGS) $(EXTRA_CFLAGS)
ALL_LDFLAGS = $(LDFLAGS) $(EXTRA_LDFLAGS)

LIB_SRC  := $(filter-out app/main.c,$(wildcard core/*.c verifier/*.c collectors/*.c tui/*.c app/*.c))
# C++ only where a C++ library's exceptions must stop (core/shaderc_guard.cpp)
LIB_CXX_SRC := $(wildcard core/*.cpp)
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/obj/%.o) $(LIB_CXX_SRC:%.cpp=$(BUILD)/obj/%.o)
MAIN_OBJ := $(BUILD)/obj/app/main.o
TEST_SRC := $(wildcard tests/unit/test_*.c)
TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
EXAMPLE_LIBS := $(patsubst examples/cpu/%.c,$(BUILD)/examples/cpu/lib%.so,$(wildcard examples/cpu/*.c))

.PHONY: all deps run test check-unit check-integration asan bench accuracy fuzz \
        install clean format examples

all: $(BUILD)/clockwork examples

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

CXX ?= c++
CXX_WARN := -std=c++17 -Wall -Wextra -Wshadow
ifeq ($(CI),true)
CXX_WARN += -Werror
endif
$(BUILD)/obj/%.o: %.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CXX_WARN) -O2 -g $(CPPFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/libclockwork.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/clockwork: $(MAIN_OBJ) $(BUILD)/libclockwork.a
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libclockwork.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -Itests/unit -o $@ $< $(BUILD)/libclockwork.a \
	    $(shell pkg-config --libs cmocka) $(LIBS)

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
	@$(MAKE) --no-print-directory all $(TEST_BIN)
	@sh tests/run.sh $(BUILD)

asan: deps
	@$(MAKE) --no-print-directory BUILD=build-asan CC=clang \
	  CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined" \
	  EXTRA_LDFLAGS="-fsanitize=address,undefined" all $(TEST_BIN:$(BUILD)/%=build-asan/%)
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp sh tests/run.sh build-asan

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
