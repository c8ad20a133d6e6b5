/* state.h - the TUI's model: kernels, selection, view, sort, filter.
 *
 * Contract: the state is plain data owned by the UI thread.  It changes in
 * two ways only: state_apply() folds in one message from the worker
 * (worker.h) and state_key() handles one key.  Both are pure (no curses, no
 * I/O), so they are unit-tested directly.  state_key() returns a bitmask of
 * ACT_* telling the main loop what to do (redraw, re-run, pause, quit...).
 * The state owns every kernel_report, source text and line table in it;
 * state_apply() takes ownership of the message's pointers (and clears them
 * in the message); state_free() releases everything.
 */
#ifndef CW_TUI_STATE_H
#define CW_TUI_STATE_H

#include <stddef.h>

#include "profile.h"
#include "report.h"
#include "verifier.h"

typedef enum {
    VIEW_MAIN = 0,
    VIEW_DETAIL,
    VIEW_SOURCE,
    VIEW_ROOFLINE,
    VIEW_DEVICE,
    VIEW_HELP,
    VIEW_COUNT
} tui_view;

typedef enum {
    KS_PENDING = 0, /* not analysed yet */
    KS_CHECKING,
    KS_CHECKED,     /* static done; measurement queued (or static only) */
    KS_MEASURING,
    KS_MEASURED,
    KS_FAILED,      /* run failed: kr.measurement.error says why */
    KS_NOTRUN,      /* not run on purpose (error findings, bad shader) */
} kernel_state;

typedef enum {
    SORT_PLAN = 0, /* plan order */
    SORT_NAME,
    SORT_PREDICTED,
    SORT_MEASURED,
    SORT_RATIO,
    SORT_FINDINGS,
    SORT_COUNT
} sort_key;

/* Keys, decoupled from curses (term.c maps them). Printable ASCII is
 * itself. */
enum {
    KEY_K_UP = 0x1000,
    KEY_K_DOWN,
    KEY_K_LEFT,
    KEY_K_RIGHT,
    KEY_K_PGUP,
    KEY_K_PGDN,
    KEY_K_HOME,
    KEY_K_END,
    KEY_K_ENTER,
    KEY_K_TAB,
    KEY_K_BTAB,
    KEY_K_ESC,
    KEY_K_BACKSPACE,
    KEY_K_RESIZE,
    KEY_K_F1,
    KEY_K_F3,     /* htop: search (here: filter) */
    KEY_K_F6,     /* htop: sort */
    KEY_K_F10,    /* htop: quit */
    KEY_K_CLICK,  /* mouse: term_last_click() says where */
    KEY_K_DCLICK, /* double click */
};

enum {
    ACT_NONE = 0,
    ACT_REDRAW = 1 << 0,
    ACT_RERUN = 1 << 1,  /* measure every kernel again */
    ACT_RESIZE = 1 << 2,
    ACT_QUIT = 1 << 3,
    ACT_THEME = 1 << 4,  /* cycle theme */
    ACT_PAUSE = 1 << 5,  /* state->paused toggled: tell the worker */
    ACT_LOOP = 1 << 6,   /* state->loop toggled: tell the worker */
};

#define SPARK_N 64

typedef struct tui_kernel {
    int plan, index;      /* where it is in the plans */
    kernel_report kr;     /* owned; kr.name is set from the start */
    kernel_state state;
    double recent[SPARK_N]; /* ring of the latest samples (µs) */
    unsigned nrecent;       /* samples pushed in this run (ring: mod) */
    char *source;           /* GLSL or SPIR-V disassembly; NULL = none */
    int source_glsl;
    line_cost *lines;       /* per source line cost; may be NULL */
    size_t nlines;
    int has_prev_pred, has_prev_meas; /* the values before the last */
    double prev_pred_us, prev_meas_us; /* re-analysis / re-measurement */
    int have_counts;        /* the evaluator's counts (detail view) */
    kernel_counts counts;   /* scalars and accesses; lines and
                               assumptions are not kept here */
} tui_kernel;

typedef enum {
    MSG_DEVICE = 0, /* dev, prof, counters */
    MSG_KERNELS,    /* plan's kernel list: names[] (replaces that plan's) */
    MSG_STATE,      /* kernel state change */
    MSG_STATIC,     /* kr (static part), source, lines */
    MSG_SAMPLE,     /* one live sample */
    MSG_MEASURED,   /* kr with measurement and divergence */
    MSG_SAMPLING,   /* text: the header's sampling state */
    MSG_STATUS,     /* text: a message for the status line */
} msg_kind;

typedef struct tui_msg {
    msg_kind kind;
    int plan, index;
    kernel_state state;
    double sample_us;
    kernel_report *kr;
    char *source;
    int source_glsl;
    line_cost *lines;
    size_t nlines;
    kernel_counts *counts;  /* STATIC: see tui_kernel.counts */
    char *text;
    report_device *dev;
    device_profile *prof;
    kernel_report *counters; /* its measurement lists the counters */
    char **names;
    size_t nnames;
} tui_msg;

typedef struct tui_state {
    tui_kernel *k;
    size_t nk;
    size_t *order; /* indices into k after filter + sort */
    size_t norder;
    size_t sel;    /* position in order */
    int top;       /* first table row shown */
    tui_view view, back;
    sort_key sort;
    int sort_desc;
    char filter[64];
    int filter_edit; /* typing a filter */
    int paused;
    int loop;        /* measuring round after round */
    int measure;     /* 0: static only */
    char sampling[128];
    char status[256];
    int status_until_done; /* status says what is under way: cleared when
                              the worker reports the round done */
    report_device dev;
    int have_dev;
    device_profile prof;
    int have_prof;
    device_profile cpu_prof; /* this CPU, when a plan has native CPU
                                kernels: their roof on the roofline */
    int have_cpu_prof;
    kernel_report counters;
    int have_counters;
    int scroll[VIEW_COUNT]; /* per-view scroll offset */
    int source_cursor;
    int rows, cols;
    int list_y, list_h;     /* where the last render put the selectable
                               rows (kernel table or roofline legend) */
    int list_first;         /* position in order of the first such row */
    char theme_name[64];
    int utf8;
    char version[32];
    unsigned tick;
} tui_state;

void state_init(tui_state *st);
void state_free(tui_state *st);

/* Set one plan's kernels by name (replacing its previous ones). */
void state_set_kernels(tui_state *st, int plan_no, char *const *names,
                       size_t n);
void state_apply(tui_state *st, tui_msg *m);
void state_msg_free(tui_msg *m);

/* One key (keys.c; the keys are listed in keys.def). */
int state_key(tui_state *st, int key);
/* A click (double: dbl) at screen row y: selects the kernel row under it
 * in the kernel list or the roofline legend; a double click opens its
 * detail.  Needs views_render() to have run (it records the rows). */
int state_click(tui_state *st, int y, int x, int dbl);
void state_refresh_order(tui_state *st);
tui_kernel *state_selected(tui_state *st);
tui_kernel *state_find(tui_state *st, int plan_no, int index);
void state_select_kernel(tui_state *st, size_t kernel_index);

/* The worst finding on source line `line` of the kernel's own shader
 * (findings in other files are not matched), or NULL. */
const finding *state_line_finding(const tui_kernel *k, int line);
/* Live or final median (µs) of a kernel; 0 when none. */
int state_median(const tui_kernel *k, double *us);
/* Relative change of the current value against the previous one (e.g.
 * -0.29 for 29% faster); 0 when there is no previous value or no change
 * worth showing (under 0.5%).  Returns 1 when there is one to show. */
int state_change(const tui_kernel *k, int measured, double *rel,
                 double *prev_us);
/* Latest samples oldest-first into out (up to max); returns the count. */
size_t state_recent(const tui_kernel *k, double *out, size_t max);
const char *state_sort_name(sort_key s);
const char *state_kstate_name(kernel_state s);

/* Copy of the evaluator's counts for the TUI: scalars and accesses (with
 * their names); lines and assumptions left out.  counts_free() frees it. */
void state_counts_copy(kernel_counts *dst, const kernel_counts *src);
void state_counts_free(kernel_counts *c);

/* Deep copy of a kernel_report (every string and array). */
void state_report_copy(kernel_report *dst, const kernel_report *src);
void state_device_free(report_device *d);
void state_device_copy(report_device *dst, const report_device *src);

#endif
