# attn - a terminal lab for self-attention.
#
#   make            build ./attn (objects under build/)
#   make run        install what is missing, build, open attn on its default lesson
#   make test       install what is missing, build, run every test
#   make asan       the whole suite under AddressSanitizer + UBSan (build-asan/)
#   make valgrind   the unit suite under valgrind (CK_FORK=no)
#   make install    PREFIX=/usr/local: bin/attn, share/attn/lessons and the
#                   manuals attn(1), attn-lesson(5) in share/man
#   make bench      time attention (fused, naive, sgemm) on the standard cases
#
# Libraries come through pkg-config (ncursesw, openblas, check) with plain -l
# fallbacks; put local overrides in config.mk.

-include config.mk

CC      ?= cc
CFLAGS  ?= -std=c11 -O2 -g -Wall -Wextra -Werror=implicit-function-declaration
PREFIX  ?= /usr/local
MANDIR  ?= $(PREFIX)/share/man
BUILD   ?= build

PKG_CONFIG ?= pkg-config
pc_cflags = $(shell $(PKG_CONFIG) --cflags $(1) 2>/dev/null)
pc_libs   = $(or $(shell $(PKG_CONFIG) --libs $(1) 2>/dev/null),$(2))

CURSES_CFLAGS := $(call pc_cflags,ncursesw)
CURSES_LIBS   := $(call pc_libs,ncursesw,-lncursesw -ltinfo)
BLAS_CFLAGS   := $(or $(call pc_cflags,openblas),$(call pc_cflags,cblas))
BLAS_LIBS     := $(call pc_libs,openblas,$(call pc_libs,cblas,-lopenblas))
PCRE_CFLAGS   := $(call pc_cflags,libpcre2-8)
PCRE_LIBS     := $(call pc_libs,libpcre2-8,-lpcre2-8)
# the engine's libraries: BLAS for the products, PCRE2 for a tokenizer's
# pattern, libunistring for its NFC
ENGINE_CFLAGS := $(BLAS_CFLAGS) $(PCRE_CFLAGS)
ENGINE_LIBS   := $(BLAS_LIBS) $(PCRE_LIBS) -lunistring
CHECK_CFLAGS  := $(call pc_cflags,check)
CHECK_LIBS    := $(call pc_libs,check,-lcheck -lsubunit -lrt -lpthread)

# Each layer sees only the headers below it: the engine's rooms see each
# other, each app folder the engine and the app folders it is built on
# (SEES_folder), the tests everything. scripts/check-layers reads these
# lines (make layers) and also refuses another folder's *_internal.h and
# curses or printing in the engine.
ENGINE_DIRS := engine/base engine/io engine/attention engine/ops engine/explain engine/lesson engine/teach engine/model \
               engine/tokenizer engine/train
APP_DIRS    := app/files app/session app/present app/measure app/class app/models app/cli app/canvas app/lessonscreen \
               app/modelscreen app/tui
SEES_files   := app/files
SEES_session := app/files app/present app/session
SEES_present := app/present
SEES_measure := app/present app/measure
SEES_class   := app/files app/session app/present app/class
SEES_models  := app/files app/session app/present app/models
SEES_cli     := app/files app/session app/present app/measure app/class app/models app/cli
SEES_canvas  := app/present app/canvas
SEES_lessonscreen := app/files app/session app/present app/canvas app/lessonscreen
SEES_modelscreen := app/files app/session app/present app/canvas app/models app/modelscreen
SEES_tui     := app/files app/session app/present app/measure app/class app/models app/canvas app/lessonscreen \
                app/modelscreen app/tui
SEES_main    := app/present app/cli app/tui
ENGINE_INC  := $(addprefix -I,$(ENGINE_DIRS))
APP_INC     := $(ENGINE_INC) $(addprefix -I,$(APP_DIRS))
# The folder of app/FOLDER/x.c (main for app/main.c) and its -I flags.
app_folder = $(if $(findstring /,$(1)),$(firstword $(subst /, ,$(1))),main)
app_inc    = $(ENGINE_INC) $(addprefix -I,$(SEES_$(call app_folder,$(1))))
ATTN_CPPFLAGS = -D_DEFAULT_SOURCE -DATTN_DATADIR='"$(PREFIX)/share/attn"'

ENGINE_SRC := $(wildcard $(addsuffix /*.c,$(ENGINE_DIRS)))
APP_SRC    := $(wildcard $(addsuffix /*.c,$(APP_DIRS)))
TEST_SRC   := $(wildcard tests/*.c)

# The reference numbers (PyTorch's, see tests/reference/README.md) ship in
# the project; ATTN_REF=DIR reads another copy.
ATTN_REF ?= $(CURDIR)/tests/reference

ENGINE_OBJ := $(ENGINE_SRC:%.c=$(BUILD)/%.o)
APP_OBJ    := $(APP_SRC:%.c=$(BUILD)/%.o)
TEST_OBJ   := $(TEST_SRC:%.c=$(BUILD)/%.o)

ENGINE_LIB := $(BUILD)/libattn-engine.a
APP_LIB    := $(BUILD)/libattn-app.a
TEST_BIN   := $(BUILD)/run_tests
LIBS       := $(CURSES_LIBS) $(ENGINE_LIBS) -lm

.PHONY: all layers run test test-only check-lessons asan asan-run valgrind fuzz install uninstall clean deps bench bench-screen class-load

all: attn

attn: $(BUILD)/app/main.o $(APP_LIB) $(ENGINE_LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

$(ENGINE_LIB): $(ENGINE_OBJ)
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^

$(APP_LIB): $(APP_OBJ)
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^

# The engine knows nothing of curses; only app/ sees its headers.
$(BUILD)/engine/%.o: engine/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(ATTN_CPPFLAGS) $(ENGINE_INC) $(ENGINE_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/app/%.o: app/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(ATTN_CPPFLAGS) $(call app_inc,$*) $(CURSES_CFLAGS) -MMD -MP -c -o $@ $<

# The layers as scripts/check-layers reads them: a folder and what it sees.
layers:
	@echo "engine: $(ENGINE_DIRS)"
	@$(foreach f,$(patsubst app/%,%,$(APP_DIRS)),echo "app/$(f): $(ENGINE_DIRS) $(SEES_$(f))";)
	@echo "app: $(ENGINE_DIRS) $(SEES_main)"

# Every tests/check_*.c defines `Suite *NAME_suite(void)`; the runner's
# list of suites is generated from them, so adding a suite is adding a file.
$(BUILD)/tests/suites.h: $(wildcard tests/check_*.c)
	@mkdir -p $(@D)
	@sed -n 's/^Suite \*\([a-z0-9_]*_suite\)(void)$$/SUITE(\1)/p' $^ > $@.tmp && mv $@.tmp $@

$(BUILD)/tests/%.o: tests/%.c $(BUILD)/tests/suites.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(ATTN_CPPFLAGS) $(APP_INC) -I$(BUILD)/tests $(CURSES_CFLAGS) $(ENGINE_CFLAGS) $(CHECK_CFLAGS) -MMD -MP -c -o $@ $<

$(TEST_BIN): $(TEST_OBJ) $(APP_LIB) $(ENGINE_LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(CHECK_LIBS) $(LIBS)

-include $(ENGINE_OBJ:.o=.d) $(APP_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(BUILD)/app/main.d

# Set-up: install the libraries (and tmux, for the screen tests) when missing.
# The targets that need them re-enter make so flags are read after the install.
deps:
	@scripts/install-deps

run: deps
	@$(MAKE) --no-print-directory attn
	./attn

test: deps
	@$(MAKE) --no-print-directory test-only

# The layers (scripts/check-layers), the lessons' own checks, then every libcheck suite (engine, language,
# screen in tmux); libcheck's summary closes the output.
test-only: attn $(TEST_BIN)
	scripts/check-layers
	home=$$(mktemp -d) && HOME=$$home ATTN_STATE_DIR=$$home/state XDG_STATE_HOME=$$home/xdg ./attn check lessons/*.lesson; \
	  rc=$$?; rm -rf "$$home"; exit $$rc
	ATTN_BIN=$(CURDIR)/attn ATTN_LESSONS=$(CURDIR)/lessons ATTN_REF=$(ATTN_REF) $(TEST_BIN)

check-lessons: attn
	./attn check lessons/*.lesson

# n = 512 and 2048, plain and causal, against the naive path; n = 8192 fused
# only; then gpt2-small and llama-small (float32 and BF16 weights) forward
# over 1024 tokens. Speed is measured here, never in the tests.
bench: deps
	@$(MAKE) --no-print-directory attn
	./attn bench --standard
	./attn bench --model gpt2-small --phases
	./attn bench --model llama-small --dtype f32 --phases
	./attn bench --model llama-small --dtype bf16 --phases

# The screen's answer to a key, in a pseudo-terminal at 250x70 and 80x24
# over every shipped lesson and a 512-token one (tests/bench/screenbench.c,
# tests/bench/tokens512.lesson): reported, never
# asserted.
bench-screen: deps
	@$(MAKE) --no-print-directory attn
	@mkdir -p $(BUILD)
	$(CC) -std=c11 -O2 -Wall -Wextra -o $(BUILD)/screenbench tests/bench/screenbench.c -lutil
	$(BUILD)/screenbench ./attn lessons/*.lesson tests/bench/tokens512.lesson
	@$(MAKE) --no-print-directory $(BUILD)/framebench
	$(BUILD)/framebench lessons/*.lesson tests/bench/tokens512.lesson

# A class under load (tests/bench/classload.c): 300 students on loopback
# answering while the instructor steps; the key-to-frame latency beside the
# pseudo-terminal's own round trip, and whether every answer was logged.
class-load: deps
	@$(MAKE) --no-print-directory attn
	@mkdir -p $(BUILD)
	$(CC) -std=c11 -O2 -Wall -Wextra -o $(BUILD)/classload tests/bench/classload.c -lutil
	$(BUILD)/classload ./attn lessons/02-sky-is-blue.lesson --students 300

# What a frame costs attn itself, with no terminal (see its purpose comment).
$(BUILD)/framebench: tests/bench/framebench.c $(APP_LIB) $(ENGINE_LIB)
	$(CC) $(CFLAGS) $(ATTN_CPPFLAGS) $(APP_INC) $(CURSES_CFLAGS) -o $@ $^ $(LIBS)

asan: deps
	@$(MAKE) --no-print-directory BUILD=build-asan \
	  CFLAGS="-std=c11 -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined -Wall -Wextra" \
	  LDFLAGS="-fsanitize=address,undefined" ATTN_BIN_NAME=attn-asan asan-run

asan-run: $(TEST_BIN) $(BUILD)/app/main.o $(APP_LIB) $(ENGINE_LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $(BUILD)/attn $(BUILD)/app/main.o $(APP_LIB) $(ENGINE_LIB) $(LIBS)
	$(BUILD)/attn check lessons/*.lesson
	ASAN_OPTIONS=detect_leaks=1 ATTN_BIN=$(CURDIR)/$(BUILD)/attn ATTN_LESSONS=$(CURDIR)/lessons ATTN_REF=$(ATTN_REF) $(TEST_BIN)

valgrind: deps
	@$(MAKE) --no-print-directory attn $(TEST_BIN)
	CK_FORK=no ATTN_BIN=$(CURDIR)/attn ATTN_LESSONS=$(CURDIR)/lessons ATTN_REF=$(ATTN_REF) ATTN_SKIP_TUI=1 \
	  valgrind --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite \
	  $(TEST_BIN)

install: attn
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/attn/lessons
	install -m 755 attn $(DESTDIR)$(PREFIX)/bin/attn
	install -m 644 lessons/*.lesson lessons/COURSE lessons/README.md $(DESTDIR)$(PREFIX)/share/attn/lessons/
	install -d $(DESTDIR)$(PREFIX)/share/attn/lessons/data
	install -m 644 lessons/data/* $(DESTDIR)$(PREFIX)/share/attn/lessons/data/
	install -d $(DESTDIR)$(PREFIX)/share/attn/models
	install -m 644 models/README.md models/tinyshakespeare.txt $(DESTDIR)$(PREFIX)/share/attn/models/
	for m in models/*/; do [ -f $$m/config.json ] || continue; \
	  install -d $(DESTDIR)$(PREFIX)/share/attn/$$m && \
	  install -m 644 $$m/config.json $$m/model.safetensors $$m/vocab.json $$m/merges.txt $$m/token_counts.json \
	    $(DESTDIR)$(PREFIX)/share/attn/$$m || exit 1; \
	done
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5
	install -m 644 app/man/attn.1 $(DESTDIR)$(MANDIR)/man1/attn.1
	install -m 644 app/man/attn-lesson.5 $(DESTDIR)$(MANDIR)/man5/attn-lesson.5

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/attn
	rm -f $(DESTDIR)$(MANDIR)/man1/attn.1 $(DESTDIR)$(MANDIR)/man5/attn-lesson.5
	rm -rf $(DESTDIR)$(PREFIX)/share/attn

clean:
	rm -rf build build-asan build-fuzz attn

# libFuzzer with ASan and UBSan (clang; `scripts/install-deps --fuzz` adds
# it): the lesson parser and evaluator, seeded with the shipped lessons and
# the broken corpus; the reader of a student's answer, seeded with
# tests/fuzz/answers; the progress store's reader (and the writer's
# round trip), seeded with tests/fuzz/progress; the .npy and CSV readers,
# seeded with tests/data, the CSV with lines of up to 64 KB; the class
# server's reader of a peer's bytes, seeded with tests/fuzz/class; a
# student's reader of a server's bytes, seeded with tests/fuzz/client; the
# safetensors reader, seeded with tests/fuzz/safetensors; the JSON reader's
# memory (its peak over the input's size bounded), seeded with
# tests/fuzz/json; attn train's checkpoint reader, seeded with
# tests/fuzz/checkpoint.
# FUZZ_SECONDS bounds each run (CI: 60 each).
FUZZ_SECONDS ?= 60
FUZZ_CC := clang -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
fuzz: deps
	@scripts/install-deps --fuzz
	@mkdir -p build-fuzz/corpus build-fuzz/corpus-answer build-fuzz/corpus-npy build-fuzz/corpus-csv
	$(FUZZ_CC) $(ATTN_CPPFLAGS) $(ENGINE_INC) -Iapp/present $(ENGINE_CFLAGS) -o build-fuzz/fuzz_lesson \
	  tests/fuzz/fuzz_lesson.c app/present/escape.c $(ENGINE_SRC) $(ENGINE_LIBS) -lm
	cp lessons/*.lesson tests/broken/*.lesson build-fuzz/corpus/ 2>/dev/null || true
	build-fuzz/fuzz_lesson -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=10 \
	  -dict=tests/fuzz/lesson.dict build-fuzz/corpus
	$(FUZZ_CC) $(ATTN_CPPFLAGS) $(ENGINE_INC) $(ENGINE_CFLAGS) -o build-fuzz/fuzz_answer tests/fuzz/fuzz_answer.c \
	  $(ENGINE_SRC) $(ENGINE_LIBS) -lm
	cp tests/fuzz/answers/* build-fuzz/corpus-answer/
	build-fuzz/fuzz_answer -max_total_time=$(FUZZ_SECONDS) -max_len=256 -timeout=10 \
	  -dict=tests/fuzz/answer.dict build-fuzz/corpus-answer
	@mkdir -p build-fuzz/corpus-progress
	$(FUZZ_CC) $(ATTN_CPPFLAGS) -Iapp/files -Iapp/session -Iengine/base -Iengine/lesson -o build-fuzz/fuzz_progress \
	  tests/fuzz/fuzz_progress.c app/session/progress.c app/session/progress_file.c app/session/progress_lines.c \
	  app/files/filewrite.c \
	  engine/base/strbuf.c \
	  engine/base/alloc.c
	cp tests/fuzz/progress/* build-fuzz/corpus-progress/
	build-fuzz/fuzz_progress -max_total_time=$(FUZZ_SECONDS) -max_len=16384 -timeout=10 build-fuzz/corpus-progress
	@mkdir -p build-fuzz/corpus-class
	$(FUZZ_CC) $(ATTN_CPPFLAGS) -Iapp/class -Iengine/base -o build-fuzz/fuzz_class tests/fuzz/fuzz_class.c app/class/class_wire.c \
	  engine/base/clock.c
	cp tests/fuzz/class/* build-fuzz/corpus-class/
	build-fuzz/fuzz_class -max_total_time=$(FUZZ_SECONDS) -max_len=16384 -timeout=10 build-fuzz/corpus-class
	@mkdir -p build-fuzz/corpus-client
	$(FUZZ_CC) $(ATTN_CPPFLAGS) $(ENGINE_INC) -Iapp/files -Iapp/session -Iapp/present -Iapp/class $(ENGINE_CFLAGS) \
	  -o build-fuzz/fuzz_client tests/fuzz/fuzz_client.c app/class/class_client.c app/class/class_wire.c \
	  app/class/class_pack.c $(wildcard app/files/*.c) $(wildcard app/session/*.c) $(wildcard app/present/*.c) $(ENGINE_SRC) $(ENGINE_LIBS) -lm
	cp tests/fuzz/client/* build-fuzz/corpus-client/
	build-fuzz/fuzz_client -max_total_time=$(FUZZ_SECONDS) -max_len=16384 -timeout=10 build-fuzz/corpus-client
	@mkdir -p build-fuzz/corpus-safetensors
	$(FUZZ_CC) $(ATTN_CPPFLAGS) $(ENGINE_INC) -o build-fuzz/fuzz_safetensors tests/fuzz/fuzz_safetensors.c \
	  engine/io/safetensors.c engine/io/json_read.c engine/base/status.c engine/base/alloc.c -lm
	cp tests/fuzz/safetensors/* build-fuzz/corpus-safetensors/
	build-fuzz/fuzz_safetensors -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 build-fuzz/corpus-safetensors
	@mkdir -p build-fuzz/corpus-json
	$(FUZZ_CC) $(ATTN_CPPFLAGS) $(ENGINE_INC) -o build-fuzz/fuzz_json tests/fuzz/fuzz_json.c engine/io/json_read.c \
	  engine/base/alloc.c -lm
	cp tests/fuzz/json/* build-fuzz/corpus-json/
	build-fuzz/fuzz_json -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 build-fuzz/corpus-json
	@mkdir -p build-fuzz/corpus-tokenizer
	$(FUZZ_CC) $(ATTN_CPPFLAGS) $(ENGINE_INC) $(ENGINE_CFLAGS) -o build-fuzz/fuzz_tokenizer tests/fuzz/fuzz_tokenizer.c \
	  $(wildcard engine/tokenizer/*.c) engine/io/json_read.c engine/base/status.c engine/base/strbuf.c engine/base/hash.c \
	  engine/base/alloc.c $(ENGINE_LIBS) -lm
	cp tests/fuzz/tokenizer/* build-fuzz/corpus-tokenizer/
	build-fuzz/fuzz_tokenizer -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 build-fuzz/corpus-tokenizer
	@mkdir -p build-fuzz/corpus-checkpoint
	$(FUZZ_CC) $(ATTN_CPPFLAGS) $(ENGINE_INC) -Iapp/files -Iapp/models $(ENGINE_CFLAGS) -o build-fuzz/fuzz_checkpoint \
	  tests/fuzz/fuzz_checkpoint.c app/models/train_state.c app/files/filewrite.c app/files/fileread.c \
	  $(ENGINE_SRC) $(ENGINE_LIBS) -lm
	cp tests/fuzz/checkpoint/* build-fuzz/corpus-checkpoint/
	build-fuzz/fuzz_checkpoint -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 build-fuzz/corpus-checkpoint
	for r in npy csv; do \
	  $(FUZZ_CC) $(ATTN_CPPFLAGS) $(ENGINE_INC) -o build-fuzz/fuzz_$$r tests/fuzz/fuzz_$$r.c engine/io/$$r.c engine/base/mat.c engine/base/numfmt.c engine/base/strbuf.c \
	    engine/base/status.c engine/base/alloc.c -lm || exit 1; \
	  cp tests/data/*.$$r build-fuzz/corpus-$$r/; \
	  build-fuzz/fuzz_$$r -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 build-fuzz/corpus-$$r || exit 1; \
	done
