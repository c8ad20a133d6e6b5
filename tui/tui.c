/* tui.c - tui_run(): the main loop, signals, snapshot mode (see tui.h).
 *
 * One loop: apply the worker's messages, redraw when something changed,
 * wait for a key with timeout(), act on the key handler's bitmask.  Signal
 * handlers only set flags; the terminal is restored through term_close()
 * on every way out (quit, SIGINT/SIGTERM/SIGHUP/SIGQUIT and the other
 * terminating signals, abort and crashes, die()).
 */
#include "termtext.h"
#include "tui.h"
#include "alloc.h"

#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "canvas.h"
#include "cpu_profile.h"
#include "state.h"
#include "term.h"
#include "theme.h"
#include "views.h"
#include "reports.h"
#include "worker.h"
#include "exitcode.h"

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
    got_signal = sig;
}

static void on_abort(int sig)
{
    /* a crash: give the terminal back before the process dies (htop does
     * the same); endwin is not async-signal-safe, but nothing else runs */
    term_close();
    if (sig != SIGABRT) { /* most likely the Vulkan driver, on the worker */
        static const char m[] = "clockwork: the TUI crashed (a signal, most likely in the "
                                "Vulkan driver while measuring); 'clockwork run PLAN' "
                                "measures in a supervised process and keeps the other "
                                "kernels' results\n";
        ssize_t w = write(STDERR_FILENO, m, sizeof m - 1);
        (void)w;
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

/* The one fatal-error path: terminal first, then the message. */
static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2),
                                                      noreturn));
static void die(const char *fmt, ...)
{
    term_close();
    va_list ap;
    va_start(ap, fmt);
    fputs("clockwork: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(app_exit_code(CW_STATUS_ENV));
}

static void install_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; /* no SA_RESTART: getch returns at once */
    /* every signal whose default is to end the process: SIGQUIT (Ctrl-\)
     * too, which left the terminal without echo on the alternate screen */
    static const int graceful[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1,
                                   SIGUSR2, SIGXCPU, SIGVTALRM};
    for (size_t i = 0; i < sizeof graceful / sizeof *graceful; i++)
        sigaction(graceful[i], &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    sa.sa_handler = on_abort;
    sa.sa_flags = SA_RESETHAND;
    static const int crashes[] = {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS};
    for (size_t i = 0; i < sizeof crashes / sizeof *crashes; i++)
        sigaction(crashes[i], &sa, NULL);
}

static int view_lookup(const char *name)
{
    static const char *const names[VIEW_COUNT] = {"main", "detail", "source",
                                                  "roofline", "device", "help"};
    for (int i = 0; i < VIEW_COUNT; i++)
        if (strcmp(name, names[i]) == 0)
            return i;
    if (strcmp(name, "kernels") == 0)
        return VIEW_MAIN;
    return -1;
}

static void apply_messages(worker *w, tui_state *st, int *dirty)
{
    if (!w) /* reports (tui/reports.h): everything was folded in at start */
        return;
    tui_msg *msgs = NULL;
    size_t n = worker_drain(w, &msgs);
    for (size_t i = 0; i < n; i++) {
        state_apply(st, &msgs[i]);
        state_msg_free(&msgs[i]);
    }
    free(msgs);
    if (n) {
        state_refresh_order(st);
        *dirty = 1;
    }
}

/* Exit code of what the TUI saw: the session's one rule (ARCHITECTURE §2). */
static int state_exit_code(const tui_state *st)
{
    int code = app_exit_code(CW_STATUS_OK);
    for (size_t i = 0; i < st->nk; i++)
        code = app_exit_worst(code, session_kernel_exit_code(&st->k[i].kr, 1));
    return code;
}

static int env_int(const char *name, int dflt)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return dflt;
    char *end;
    long n = strtol(v, &end, 10);
    return *end || n <= 0 || n > 10000 ? dflt : (int)n;
}

static int locale_utf8(void)
{
    const char *cs = nl_langinfo(CODESET);
    return cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

static int run_snapshot(const tui_args *a, tui_state *st, int view)
{
    int cols = a->cols > 0 ? a->cols : env_int("COLUMNS", 80);
    int rows = a->rows > 0 ? a->rows : env_int("LINES", 24);
    worker *w = NULL;
    if (!a->nreports && worker_start(a, &w) != 0) {
        fprintf(stderr, "clockwork: cannot start the measurement thread\n");
        return app_exit_code(CW_STATUS_ENV);
    }
    int dirty = 0;
    /* static analysis is quick; measuring a plan may take a while */
    if (w && !worker_wait_settled(w, a->measure ? 1800 : 600))
        fprintf(stderr, "clockwork: snapshot: gave up waiting for the "
                        "kernels; showing what there is\n");
    apply_messages(w, st, &dirty);
    worker_stop(w);
    st->view = (tui_view)view;
    st->back = VIEW_MAIN;
    canvas cv;
    canvas_init(&cv, rows, cols, st->utf8);
    views_render(&cv, st);
    canvas_write_text(&cv, stdout);
    fflush(stdout);
    canvas_free(&cv);
    return state_exit_code(st);
}

static void cycle_theme(tui_state *st, theme *th, int no_color)
{
    if (no_color) {
        snprintf(st->status, sizeof st->status, "colours are off (%s)",
                 theme_no_color_env() ? "NO_COLOR is set" : "--no-color");
        return;
    }
    size_t n = 0, cur = 0;
    while (theme_bundled[n]) {
        if (strcmp(theme_bundled[n], st->theme_name) == 0)
            cur = n;
        n++;
    }
    for (size_t step = 1; step <= n; step++) {
        const char *name = theme_bundled[(cur + step) % n];
        theme t;
        cw_error err;
        if (theme_load(name, &t, &err) == 0) {
            *th = t;
            snprintf(st->theme_name, sizeof st->theme_name, "%s", name);
            int col = term_set_theme(th, 0);
            snprintf(st->status, sizeof st->status, "theme %s%s", name,
                     col || th->monochrome ? "" : " (this terminal has no "
                                                  "colours)");
            return;
        }
    }
}

static int run_interactive(const tui_args *a, tui_state *st, theme *th,
                           int no_color)
{
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        fprintf(stderr, "clockwork: tui needs a terminal on stdin and stdout "
                        "(use 'clockwork run', or --snapshot VIEW)\n");
        return app_exit_code(CW_STATUS_INPUT);
    }
    char err[512];
    if (term_open(err, sizeof err) != 0) {
        cw_term_message(err);
        return app_exit_code(CW_STATUS_INPUT);
    }
    atexit(term_close);
    cw_set_oom_hook(term_close); /* out of memory: the terminal first */
    install_signals();
    if (!term_set_theme(th, no_color) && !no_color && !th->monochrome &&
        !term_has_colors())
        snprintf(st->status, sizeof st->status,
                 "this terminal has no colours: monochrome");
    worker *w = NULL;
    if (!a->nreports && worker_start(a, &w) != 0)
        die("cannot start the measurement thread");
    int rows, cols;
    term_size(&rows, &cols);
    canvas cv;
    canvas_init(&cv, rows, cols, st->utf8);
    int dirty = 1, full = 1, frames = 0;
    for (;;) {
        if (got_signal)
            break;
        apply_messages(w, st, &dirty);
        if (dirty) {
            views_render(&cv, st);
            term_paint(&cv, full);
            dirty = full = 0;
        }
        frames++;
        if (a->frames > 0 && frames >= a->frames)
            break;
        /* short ticks while samples stream in, long ones when idle */
        int key = term_getkey(!w || worker_settled(w) ? 1000 : 100);
        if (key < 0)
            continue;
        int act;
        if (key == KEY_K_CLICK || key == KEY_K_DCLICK) {
            int my, mx;
            term_last_click(&my, &mx);
            act = state_click(st, my, mx, key == KEY_K_DCLICK);
        } else {
            act = state_key(st, key);
        }
        if (act & ACT_QUIT)
            break;
        if (act & ACT_RESIZE) {
            term_size(&rows, &cols);
            canvas_resize(&cv, rows, cols);
            full = 1;
        }
        if (act & ACT_THEME) {
            cycle_theme(st, th, no_color);
            full = 1;
        }
        if (w && (act & ACT_PAUSE))
            worker_pause(w, st->paused);
        if (w && (act & ACT_LOOP))
            worker_loop(w, st->loop);
        if (w && (act & ACT_RERUN))
            worker_rerun(w);
        if (act & (ACT_REDRAW | ACT_RESIZE | ACT_THEME))
            dirty = 1;
    }
    term_close();
    worker_stop(w);
    canvas_free(&cv);
    if (got_signal) {
        /* the terminal is back: now die of the signal, as the shell
         * expects (exit status 128 + signal) */
        int sig = got_signal;
        state_free(st);
        signal(sig, SIG_DFL);
        raise(sig);
    }
    return app_exit_code(CW_STATUS_OK);
}

int tui_run(const tui_args *a)
{
    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C"); /* "1.52" everywhere, never "1,52" */
    tui_state st;
    state_init(&st);
    st.measure = a->measure;
    st.utf8 = locale_utf8();
    cw_options dflt;
    cw_options_default(&dflt);
    const cw_options *o = a->opt ? a->opt : &dflt;
    int no_color = o->no_color || theme_no_color_env();
    theme th;
    if (no_color) {
        theme_monochrome(&th);
    } else {
        cw_error err;
        if (theme_load(o->theme, &th, &err) != 0) {
            char msg[1600];
            cw_error_format(&err, msg, sizeof msg);
            cw_term_message(msg);
            state_free(&st);
            return app_exit_code(CW_STATUS_INPUT);
        }
    }
    snprintf(st.theme_name, sizeof st.theme_name, "%s",
             no_color ? "monochrome" : o->theme ? o->theme : "default");
    tui_args args = *a;
    args.opt = o;
    /* native CPU kernels are judged against this CPU's roof, not the
     * Vulkan device's: the roofline draws both */
    for (size_t p = 0; p < a->nplans && !st.have_cpu_prof; p++)
        for (size_t i = 0; i < a->plans[p].nkernels; i++)
            if (a->plans[p].kernels[i].kind == PLAN_KERNEL_CPU) {
                cpu_profile(&st.cpu_prof);
                st.have_cpu_prof = 1;
                break;
            }
    if (a->nreports) { /* saved reports instead of plans: no worker */
        char err[1600];
        if (tui_reports_load(&st, a->reports, a->nreports, o->tolerance, err, sizeof err)) {
            cw_term_message(err);
            state_free(&st);
            return app_exit_code(CW_STATUS_INPUT);
        }
    }
    int rc;
    if (a->snapshot_view) {
        int v = view_lookup(a->snapshot_view);
        if (v < 0) {
            fprintf(stderr, "clockwork: unknown view '%s' for --snapshot "
                            "(main, detail, source, roofline, device, help)\n",
                    a->snapshot_view);
            state_free(&st);
            return app_exit_code(CW_STATUS_INPUT);
        }
        rc = run_snapshot(&args, &st, v);
    } else {
        rc = run_interactive(&args, &st, &th, no_color);
    }
    state_free(&st);
    return rc;
}
