/* main.c - the command line (ARCHITECTURE §2): parse, dispatch, exit code.
 * Every subcommand's work lives in its module; this file only wires them. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "supervise.h"
#include "exitcode.h"
#include "termtext.h"
#include "alloc.h"
#include "diff.h"
#include "pfm.h"
#include "identity.h"
#include "session.h"
#include "progress.h"
#include "load.h"
#include "verdict_load.h"
#include "plan.h"
#include "profile.h"
#include "report.h"
#include "merge_cmd.h"
#include "scope.h"
#include "tui.h"

typedef struct cli {
    cw_options opt;
    const char *snapshot;
    int frames;
    int cols, rows;
    double threshold;
    int cpu;           /* calibrate --cpu */
    int static_only;   /* tui --static */
    int no_save;       /* calibrate --no-save */
    int force;         /* calibrate --force: save even when measured under load */
    const char *shard; /* check/run --shard auto|I/N */
} cli;

static const char *const usage_main =
    "usage: clockwork [COMMAND] [OPTIONS] PLAN...\n"
    "\n"
    "Predicts, checks and measures GPU compute kernels described by a plan.\n"
    "\n"
    "commands:\n"
    "  (none) PLAN...     the TUI on a terminal, otherwise the same as 'run'\n"
    "  tui PLAN...        interactive front end: prediction next to live measurement\n"
    "  check PLAN...      static only: findings and predictions, nothing is executed\n"
    "  run PLAN...        static + measured + verdict\n"
    "  devices            Vulkan devices and their compute limits\n"
    "  calibrate          measure the device's ceilings and store its profile\n"
    "  diff BASE NEW      compare two JSON reports, flag regressions\n"
    "  merge REPORT...    join the reports of shards or devices into one\n"
    "\n"
    "common options:\n"
    "  --device SEL       device index or name substring (default: discrete GPU,\n"
    "                     else integrated, else the CPU device)\n"
    "  --profile P        profile file or built-in name (h200, lavapipe)\n"
    "  --format F         table | json | csv | sarif\n"
    "  -o FILE            write the report to FILE ('-' = stdout), atomically\n"
    "  --samples N        minimum timed samples per kernel (default 10)\n"
    "  --warmup N         warm-up dispatches (default 2)\n"
    "  --tolerance F      verdict band, e.g. 0.25 for ±25%\n"
    "  --timeout S        hang guard per dispatch in seconds (default 10)\n"
    "  --theme NAME       TUI theme;  --no-color  monochrome\n"
    "  -h, --help         help (also after a command);  --version\n"
    "\n"
    "exit codes: 0 clean, 1 error findings, 2 usage or input error,\n"
    "            3 divergence (run) or regression (diff), 4 environment failure\n"
    "See 'clockwork COMMAND --help' and man clockwork.\n";

static const char *help_for(const char *cmd)
{
    if (!cmd)
        return usage_main;
    if (!strcmp(cmd, "check"))
        return "usage: clockwork check [OPTIONS] PLAN...\n"
               "\n"
               "Reads each plan, compiles its shaders, and without running anything reports\n"
               "the findings (out-of-bounds, barrier divergence, races, limits, ...) and the\n"
               "predicted time, ideal time and bound of every kernel. Works without a GPU:\n"
               "the profile comes from --profile, else the default device, else this CPU.\n"
               "\n"
               "options: --device SEL|auto, --profile FILE|NAME, --format table|json|sarif|csv,\n"
               "         -o FILE (placeholders %r rank, %n shards, %h host, %j job, %p pid,\n"
               "         %q{VAR}), --shard auto|I/N (this process's share of the kernels,\n"
               "         I from 0; auto reads Slurm, MPI and Kubernetes variables)\n"
               "exit: 0 clean, 1 error findings, 2 input error\n";
    if (!strcmp(cmd, "run"))
        return "usage: clockwork run [OPTIONS] PLAN...\n"
               "\n"
               "Everything 'check' does, then runs each kernel on the device: warm-up, timed\n"
               "samples (Vulkan timestamps), pipeline statistics and libpfm4 counters, and\n"
               "judges measured against predicted. Kernels with error findings are not run.\n"
               "\n"
               "options: --device SEL, --profile FILE|NAME, --format table|json|csv|sarif,\n"
               "         -o FILE, --samples N, --warmup N, --tolerance F, --timeout S,\n"
               "         --budget S (sampling time per kernel), --dump DIR (output buffers),\n"
               "         --events LIST (libpfm4 event names, comma-separated),\n"
               "         --clock-check auto|on|off (after the warm-up, time a dependent FMA\n"
               "         chain against the profile's clock and warm up more while it reads\n"
               "         low; auto: GPUs only), --shard auto|I/N and -o placeholders as\n"
               "         for check\n"
               "exit: 0 clean, 1 error findings, 2 input error, 3 divergence,\n"
               "      4 no device / device lost / out of memory / hang\n";
    if (!strcmp(cmd, "tui"))
        return "usage: clockwork tui [OPTIONS] PLAN...\n"
               "\n"
               "Interactive front end: per kernel the prediction next to live samples.\n"
               "Keys: arrows/j/k move, Enter detail, Tab next view, / filter, s sort,\n"
               "t theme, p pause, r re-run, ? help, q quit.\n"
               "\n"
               "options: --device SEL, --profile P, --theme NAME, --no-color, --static\n"
               "         (no measurement), --snapshot VIEW (print main|detail|source|\n"
               "         roofline|device|help and exit), --size COLSxROWS, --frames N\n";
    if (!strcmp(cmd, "devices"))
        return "usage: clockwork devices [--format table|json] [-o FILE]\n"
               "\n"
               "Lists every Vulkan physical device: name, type, vendor, driver, API version,\n"
               "compute limits, timestamp support per queue family, pipeline statistics and\n"
               "calibrated timestamps. Exit 4 when there is no Vulkan loader or device.\n";
    if (!strcmp(cmd, "calibrate"))
        return "usage: clockwork calibrate [--device SEL] [--budget S] [-o FILE] [--cpu] [--no-save] [--force]\n"
               "\n"
               "Measures the device's ceilings (DRAM, L2 and shared bandwidth, FP32/FP16/\n"
               "FP64/INT32 throughput, dispatch overhead, timestamp resolution) and stores\n"
               "the profile in the cache ($XDG_CACHE_HOME/clockwork/profiles), where check\n"
               "and run find it. --cpu measures this CPU for native kernels instead.\n"
               "--no-save only prints it. Measured while other processes kept the CPUs\n"
               "busy, it is printed with a warning and not saved unless --force.\n";
    if (!strcmp(cmd, "merge"))
        return "usage: clockwork merge [--format table|json|csv|sarif] [-o FILE]\n"
               "                       [--tolerance F] REPORT...\n"
               "\n"
               "Joins the reports of a sharded run (check/run --shard) or of several\n"
               "devices into one. Every shard of a launch must be given exactly once, all\n"
               "from one tool version; otherwise exit 2 naming what is missing. When the\n"
               "same kernel was measured on several devices, shows its spread and flags a\n"
               "device off from its siblings and the model (device-outlier; --tolerance\n"
               "sets the band, default 0.25). See docs/cluster.md.\n"
               "exit: 2 incomplete, duplicated or mixed set; else the worst exit status\n"
               "      of the merged reports\n";
    if (!strcmp(cmd, "diff"))
        return "usage: clockwork diff [--threshold F] [--format table|json] BASE.json NEW.json\n"
               "\n"
               "Compares two reports kernel by kernel: predicted and measured change judged\n"
               "against both reports' spread, findings added and removed, kernels added or\n"
               "missing. Exit 3 on a regression beyond --threshold (default 0.10).\n";
    return NULL;
}

static void die_usage(const char *cmd, const char *fmt, const char *arg)
{
    fprintf(stderr, "clockwork: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'clockwork %s%s--help'.\n", cmd ? cmd : "", cmd ? " " : "");
    exit(CW_EXIT_USAGE);
}

static double parse_double(const char *cmd, const char *opt, const char *s, double lo, double hi)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v >= lo && v <= hi)) {
        char msg[256];
        snprintf(msg, sizeof msg, "invalid value for %s: '%%s' (a number in [%g, %g])", opt, lo, hi);
        die_usage(cmd, msg, s);
    }
    return v;
}

enum {
    OPT_DEVICE = 256, OPT_PROFILE, OPT_FORMAT, OPT_SAMPLES, OPT_WARMUP, OPT_TOLERANCE,
    OPT_TIMEOUT, OPT_BUDGET, OPT_DUMP, OPT_EVENTS, OPT_THEME, OPT_NOCOLOR, OPT_SNAPSHOT,
    OPT_FRAMES, OPT_SIZE, OPT_THRESHOLD, OPT_CPU, OPT_STATIC, OPT_VERSION, OPT_NOSAVE, OPT_FORCE, OPT_SHARD,
    OPT_CLOCK_CHECK,
};

static const struct option long_opts[] = {
    {"device", required_argument, 0, OPT_DEVICE},
    {"profile", required_argument, 0, OPT_PROFILE},
    {"format", required_argument, 0, OPT_FORMAT},
    {"output", required_argument, 0, 'o'},
    {"samples", required_argument, 0, OPT_SAMPLES},
    {"warmup", required_argument, 0, OPT_WARMUP},
    {"tolerance", required_argument, 0, OPT_TOLERANCE},
    {"timeout", required_argument, 0, OPT_TIMEOUT},
    {"budget", required_argument, 0, OPT_BUDGET},
    {"dump", required_argument, 0, OPT_DUMP},
    {"events", required_argument, 0, OPT_EVENTS},
    {"theme", required_argument, 0, OPT_THEME},
    {"no-color", no_argument, 0, OPT_NOCOLOR},
    {"snapshot", required_argument, 0, OPT_SNAPSHOT},
    {"frames", required_argument, 0, OPT_FRAMES},
    {"size", required_argument, 0, OPT_SIZE},
    {"threshold", required_argument, 0, OPT_THRESHOLD},
    {"cpu", no_argument, 0, OPT_CPU},
    {"static", no_argument, 0, OPT_STATIC},
    {"no-save", no_argument, 0, OPT_NOSAVE},
    {"force", no_argument, 0, OPT_FORCE},
    {"shard", required_argument, 0, OPT_SHARD},
    {"clock-check", required_argument, 0, OPT_CLOCK_CHECK},
    {"quiet", no_argument, 0, 'q'},
    {"help", no_argument, 0, 'h'},
    {"version", no_argument, 0, OPT_VERSION},
    {0, 0, 0, 0},
};

static void parse_options(const char *cmd, int argc, char **argv, cli *c)
{
    int ch;
    opterr = 0;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "o:qh", long_opts, NULL)) != -1) {
        switch (ch) {
        case OPT_DEVICE: c->opt.device = optarg; break;
        case OPT_PROFILE: c->opt.profile = optarg; break;
        case OPT_FORMAT:
            if (strcmp(optarg, "table") && strcmp(optarg, "json") && strcmp(optarg, "csv") &&
                strcmp(optarg, "sarif"))
                die_usage(cmd, "unknown format '%s' (table, json, csv, sarif)", optarg);
            c->opt.format = optarg;
            break;
        case 'o': c->opt.output = optarg; break;
        case OPT_SAMPLES: c->opt.samples = (unsigned)parse_double(cmd, "--samples", optarg, 1, 1e6); break;
        case OPT_WARMUP: c->opt.warmup = (unsigned)parse_double(cmd, "--warmup", optarg, 0, 1e6); break;
        case OPT_TOLERANCE: c->opt.tolerance = parse_double(cmd, "--tolerance", optarg, 0, 100); break;
        case OPT_TIMEOUT: c->opt.timeout_s = parse_double(cmd, "--timeout", optarg, 0.01, 86400); break;
        case OPT_BUDGET: c->opt.budget_s = parse_double(cmd, "--budget", optarg, 0.001, 86400); break;
        case OPT_DUMP: c->opt.dump_dir = optarg; break;
        case OPT_EVENTS: {
            /* an unknown name is an input error, not "counter unavailable" */
            cw_error err;
            cw_error_clear(&err);
            if (pfm_validate_events(optarg, &err)) {
                char msg[1600];
                cw_error_format(&err, msg, sizeof msg);
                cw_term_message(msg);
                exit(CW_EXIT_USAGE);
            }
            c->opt.events = optarg;
            break;
        }
        case OPT_THEME: c->opt.theme = optarg; break;
        case OPT_NOCOLOR: c->opt.no_color = 1; break;
        case OPT_SNAPSHOT: c->snapshot = optarg; break;
        case OPT_FRAMES: c->frames = (int)parse_double(cmd, "--frames", optarg, 1, 1e9); break;
        case OPT_SIZE:
            if (sscanf(optarg, "%dx%d", &c->cols, &c->rows) != 2 || c->cols < 1 || c->rows < 1 ||
                c->cols > 1000 || c->rows > 1000)
                die_usage(cmd, "invalid --size '%s' (COLSxROWS, e.g. 80x24)", optarg);
            break;
        case OPT_THRESHOLD: c->threshold = parse_double(cmd, "--threshold", optarg, 0, 100); break;
        case OPT_CPU: c->cpu = 1; break;
        case OPT_STATIC: c->static_only = 1; break;
        case OPT_NOSAVE: c->no_save = 1; break;
        case OPT_FORCE: c->force = 1; break;
        case OPT_SHARD: c->shard = optarg; break;
        case OPT_CLOCK_CHECK:
            if (strcmp(optarg, "auto") && strcmp(optarg, "on") && strcmp(optarg, "off"))
                die_usage(cmd, "invalid --clock-check '%s' (auto, on, off)", optarg);
            c->opt.clock_check = optarg;
            break;
        case 'q': c->opt.quiet = 1; break;
        case 'h': fputs(help_for(cmd), stdout); exit(0);
        case OPT_VERSION: printf("clockwork %s\n", CW_VERSION); exit(0);
        case ':':
            die_usage(cmd, "option '%s' needs a value", argv[optind - 1]);
            break;
        default:
            die_usage(cmd, "unknown option '%s'", argv[optind - 1]);
        }
    }
}

/* One line on stderr: "clockwork: file:line:col: text". */
static void print_error(const cw_error *err)
{
    char msg[1600];
    cw_error_format(err, msg, sizeof msg);
    fputs("clockwork: ", stderr);
    cw_term_fputs(msg, stderr);
    fputc('\n', stderr);
}

/* "clockwork: NAME: TEXT" on stderr, escaped (names come from plans) */
static void kernel_message(const char *name, const char *text)
{
    fputs("clockwork: ", stderr);
    cw_term_fputs(name, stderr);
    fputs(": ", stderr);
    cw_term_fputs(text, stderr);
    fputc('\n', stderr);
}

/* ---- plans ---- */

typedef struct plans {
    plan *items;
    size_t n;
    int load_failed;  /* the exit code of the worst plan that did not load, else 0 */
} plans;

static void load_plans(int argc, char **argv, plans *ps)
{
    ps->items = xcalloc((size_t)argc + 1, sizeof *ps->items);
    for (int i = 0; i < argc; i++) {
        cw_error err;
        cw_error_clear(&err);
        if (plan_load(argv[i], &ps->items[ps->n], &err) != 0) {
            print_error(&err);
            /* a bad plan is 2; out of memory reading it is 4 */
            ps->load_failed = app_exit_worst(ps->load_failed, app_exit_for_error(&err));
            continue;
        }
        ps->n++;
    }
}

static void free_plans(plans *ps)
{
    for (size_t i = 0; i < ps->n; i++)
        plan_free(&ps->items[i]);
    free(ps->items);
}

static int emit_report(const cli *c, const report *r)
{
    cw_error err;
    cw_error_clear(&err);
    const char *path = c->opt.output ? c->opt.output : "-";
    const char *format = report_format_for(c->opt.format, c->opt.output);
    if (report_write_file(r, path, format, &err) != 0) {
        print_error(&err);
        return app_exit_for_error(&err);
    }
    return 0;
}

/* --dump DIR: one folder per kernel, DIR/KERNEL (DIR/PLAN/KERNEL when
 * several plans are given; a second kernel of the same name is KERNEL.2),
 * created here; names are made safe for a path. */
static void path_part(char *dst, size_t n, const char *s)
{
    size_t o = 0;
    for (; s && *s && o + 1 < n; s++)
        dst[o++] = *s == '/' || *s == '\\' || (unsigned char)*s < 32 ? '_' : *s;
    dst[o] = '\0';
    if (!strcmp(dst, ".") || !strcmp(dst, "..") || !dst[0])
        snprintf(dst, n, "_");
}

/* level 0: "plan"; 1: "cpu-plan" (with its folder); 2: "2-plan" */
static void plan_label(const char *path, int level, size_t index, char *out, size_t n)
{
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s", path ? path : "plan");
    char *slash = strrchr(tmp, '/');
    char *file = slash ? slash + 1 : tmp;
    char *dot = strrchr(file, '.');
    if (dot && dot != file && !strcmp(dot, ".json"))
        *dot = '\0';
    char a[120], b[120];
    path_part(b, sizeof b, file);
    if (level == 0) {
        snprintf(out, n, "%s", b);
    } else if (level == 1 && slash) {
        *slash = '\0';
        char *up = strrchr(tmp, '/');
        path_part(a, sizeof a, up ? up + 1 : tmp);
        snprintf(out, n, "%s-%s", a, b);
    } else {
        snprintf(out, n, "%zu-%s", index + 1, b);
    }
}

/* The plan's folder under DIR: its file name without .json, or, when two
 * plans given share it, "PARENT-NAME" (examples/cpu/plan.json: cpu-plan),
 * else "N-NAME". */
static void plan_part(const plans *ps, size_t p, char *out, size_t n)
{
    char mine[256], other[256];
    for (int level = 0; level < 3; level++) {
        int clash = 0;
        plan_label(ps->items[p].path, level, p, mine, sizeof mine);
        for (size_t q = 0; q < ps->n && !clash; q++) {
            plan_label(ps->items[q].path, level, q, other, sizeof other);
            clash = q != p && !strcmp(mine, other);
        }
        if (!clash || level == 2)
            break;
    }
    snprintf(out, n, "%s", mine);
}

static int dump_dir_for(const char *base, const char *plan_dir, const char *name, uint32_t occ,
                        char *out, size_t n)
{
    char part[256];
    if (mkdir(base, 0755) != 0 && errno != EEXIST)
        return -1;
    size_t used = (size_t)snprintf(out, n, "%s", base);
    if (plan_dir) {
        used += (size_t)snprintf(out + used, used < n ? n - used : 0, "/%s", plan_dir);
        if (used >= n || (mkdir(out, 0755) != 0 && errno != EEXIST))
            return -1;
    }
    /* the kernel's own folder is made by the collector when it writes */
    path_part(part, sizeof part, name);
    if (occ)
        used += (size_t)snprintf(out + used, used < n ? n - used : 0, "/%s.%u", part, occ + 1);
    else
        used += (size_t)snprintf(out + used, used < n ? n - used : 0, "/%s", part);
    return used < n ? 0 : -1;
}

static int cmd_check_or_run(const cli *c, int argc, char **argv, int measure)
{
    const char *cmd = measure ? "run" : "check";
    if (argc == 0)
        die_usage(cmd, "%s", "no plan given: clockwork " /* no format args */
                             "COMMAND PLAN.json");
    plans ps = {0};
    load_plans(argc, argv, &ps);
    int code = ps.load_failed ? ps.load_failed : CW_EXIT_OK;
    if (ps.n == 0) {
        free_plans(&ps);
        return code;
    }
    run_scope scope;
    cw_error scope_err;
    cw_error_clear(&scope_err);
    if (scope_open(c->shard, c->opt.output, ps.items, ps.n, c->opt.quiet, &scope,
                   &scope_err)) {
        print_error(&scope_err);
        free_plans(&ps);
        return CW_EXIT_USAGE;
    }
    cli scoped = *c; /* -o with its placeholders expanded */
    scoped.opt.output = scope.output;
    c = &scoped;
    report r;
    report_init(&r);
    session_kinds kinds = {0, 0}; /* of the kernels this shard takes */
    size_t ntaken = 0, done = 0;
    for (size_t p = 0, g = 0; p < ps.n; p++)
        for (size_t i = 0; i < ps.items[p].nkernels; i++, g++)
            if (scope_takes(&scope, g)) {
                ntaken++;
                kinds.cpu += ps.items[p].kernels[i].kind == PLAN_KERNEL_CPU;
                kinds.gpu += ps.items[p].kernels[i].kind != PLAN_KERNEL_CPU;
            }
    if (measure && kinds.gpu) {
        /* the device work in a child that streams each kernel's result:
         * a driver crash loses nothing (supervise.h) */
        int scode;
        if (supervise_begin(&scode, c->opt.timeout_s > 0 ? c->opt.timeout_s : 10)) {
            report_free(&r);
            free_plans(&ps);
            scope_close(&scope);
            return scode;
        }
        const char *crashed = supervise_open_crash();
        if (crashed) { /* an earlier process crashed opening it: not again */
            fprintf(stderr, "clockwork: %s\n", crashed);
            setenv("CW_BACKENDS_OFF", "vulkan", 1);
        }
    }
    session s;
    cw_error err;
    int rc = session_open(&s, &c->opt, measure, kinds, &r.device, &err);
    if (rc) {
        /* No device (exit 4): nothing is measured, but the static findings
         * and predictions are still reported.  A bad --profile, --device
         * or --events is a usage error: nothing to report. */
        print_error(&err);
        code = app_exit_worst(code, app_exit_code(rc));
        if (rc != CW_STATUS_ENV) {
            session_close(&s);
            report_free(&r);
            free_plans(&ps);
            scope_close(&scope);
            return code;
        }
    }
    progress prog;
    progress_open(&prog, ntaken, c->opt.quiet || !measure); /* run only: check is quick */
    supervise_chain_sample(progress_sample);
    session_live live = {.on_sample = supervise_sample, .user = &prog};
    size_t g = 0; /* kernel number over every plan: the shard assignment's */
    for (size_t p = 0; p < ps.n; p++) {
        uint32_t *occ = xcalloc(ps.items[p].nkernels + 1, sizeof *occ);
        identity_plan_occurrences(&ps.items[p], occ);
        for (size_t i = 0; i < ps.items[p].nkernels; i++, g++) {
            if (!scope_takes(&scope, g))
                continue;
            const plan_kernel *k = &ps.items[p].kernels[i];
            kernel_report *kr = report_add_kernel(&r, k->name);
            progress_kernel(&prog, ++done, k->name, measure);
            const char *crash; /* this kernel crashed the driver in an earlier process */
            if (supervise_known(g, kr, &crash)) {
                progress_done(&prog, kr);
                continue;
            }
            supervise_kernel_start(g);
            kernel_artifacts art;
            if (crash) /* its static stage without the device */
                pipeline_check_kernel(k, &s.prof, NULL, kr, &art);
            else
                session_check_kernel(&s, k, kr, &art);
            scope_tag(&scope, &ps.items[p], p, i, g, kr);
            if (kr->env_error && !c->opt.quiet)
                kernel_message(k->name, kr->measurement.error);
            char dump[4096], pdir[256];
            if (ps.n > 1)
                plan_part(&ps, p, pdir, sizeof pdir);
            live.dump_dir = c->opt.dump_dir && dump_dir_for(c->opt.dump_dir,
                                                            ps.n > 1 ? pdir : NULL, k->name,
                                                            occ[i], dump, sizeof dump) == 0
                                ? dump
                                : c->opt.dump_dir;
            if (measure && crash) {
                cw_set_str(&kr->measurement.error, crash);
                kr->divergence.valid = 1;
                kr->divergence.status = DIV_UNKNOWN;
                cw_set_str(&kr->divergence.explanation, "not measured: the driver crashed");
                if (!c->opt.quiet)
                    kernel_message(k->name, crash);
            } else if (measure && session_measure_kernel(&s, k, &art, &live, kr) &&
                       !kr->env_error && !c->opt.quiet)
                kernel_message(k->name,
                               kr->measurement.error ? kr->measurement.error : "run failed");
            progress_done(&prog, kr);
            kernel_artifacts_free(&art);
            supervise_kernel_done(g, kr);
        }
        free(occ);
    }
    /* After a hang the driver may still be running the kernel: the
     * device cannot be torn down safely, so the report is written and the
     * process leaves without tearing it down. */
    int wedged = session_wedged(&s);
    code = app_exit_worst(code, session_exit_code(&r, measure));
    scope_finish(&scope, &r, code);
    int wrc = emit_report(c, &r);
    if (wrc)
        code = app_exit_worst(code, wrc);
    /* the device is torn down after the report is out: a driver that
     * crashes in teardown loses nothing */
    supervise_report_written(code);
    session_close(&s);
    if (wedged) {
        fflush(NULL);
        _exit(code);
    }
    report_free(&r);
    free_plans(&ps);
    scope_close(&scope);
    return code;
}

static int cmd_devices(const cli *c)
{
    cw_error err;
    cw_error_clear(&err);
    char *text = NULL;
    int rc = session_list_devices(c->opt.format ? c->opt.format : "table", &text, &err);
    if (rc == CW_STATUS_INPUT)
        die_usage("devices", "%s", err.text);
    if (rc) {
        print_error(&err);
        return app_exit_code(rc);
    }
    rc = cw_write_file_atomic(c->opt.output ? c->opt.output : "-", text, strlen(text), &err);
    free(text);
    if (rc) {
        print_error(&err);
        return app_exit_for_error(&err);
    }
    return 0;
}

static int cmd_calibrate(const cli *c)
{
    device_profile prof;
    cw_error err;
    cw_error_clear(&err);
    double budget = c->opt.budget_s > 0 ? c->opt.budget_s : 2;
    load_window lw; /* ceilings measured under load would be too low */
    load_begin(&lw);
    int rc = session_calibrate(&c->opt, c->cpu, budget, &prof, c->opt.quiet ? NULL : stderr,
                               &err);
    if (rc) {
        print_error(&err);
        return app_exit_code(rc);
    }
    machine_load load;
    load_end(&lw, &load);
    int busy = load.busy && !c->force;
    if (load.busy) {
        char who[200];
        machine_load_describe(&load, who, sizeof who);
        fprintf(stderr, "clockwork: warning: the machine was busy while calibrating (%s): "
                "the ceilings may be too low%s\n", who,
                c->no_save ? "" : c->force ? "; saved anyway (--force)"
                : "; the profile is not saved to the cache (calibrate again on a quiet "
                  "machine, or --force to save it anyway)");
    }
    int store_failed = 0; /* exit 4 after the profile is printed */
    if (!c->no_save && !busy) {
        char path[1024];
        if (profile_cache_path(prof.uuid, prof.driver, path, sizeof path) == 0) {
            if (profile_save_file(&prof, path, &err) == 0)
                fprintf(stderr, "clockwork: profile saved to %s\n", path);
            else {
                char msg[1600];
                cw_error_format(&err, msg, sizeof msg);
                fprintf(stderr, "clockwork: cannot store the profile: %s\n", msg);
                store_failed = 1;
            }
        } else {
            fprintf(stderr, "clockwork: cannot store the profile: no cache folder "
                    "(set XDG_CACHE_HOME or HOME)\n");
            store_failed = 1;
        }
    }
    /* -o FILE, or the profile on stdout ("-" goes through the same writer) */
    if (profile_save_file(&prof, c->opt.output ? c->opt.output : "-", &err) != 0) {
        print_error(&err);
        return CW_EXIT_USAGE;
    }
    return store_failed ? CW_EXIT_ENV : 0;
}

static int cmd_diff(const cli *c, int argc, char **argv)
{
    if (argc != 2)
        die_usage("diff", "%s", "diff needs two reports: BASE.json NEW.json");
    /* csv and sarif were taken and a table written in their place */
    if (c->opt.format && strcmp(c->opt.format, "table") && strcmp(c->opt.format, "json"))
        die_usage("diff", "diff writes --format table or json, not '%s'", c->opt.format);
    report base, cur;
    cw_error err;
    cw_error_clear(&err);
    if (report_read_file(argv[0], &base, &err) != 0) {
        print_error(&err);
        return app_exit_for_error(&err);
    }
    if (report_read_file(argv[1], &cur, &err) != 0) {
        print_error(&err);
        report_free(&base);
        return app_exit_for_error(&err);
    }
    diff_result d;
    int code = app_exit_code(diff_reports(&base, &cur, c->threshold > 0 ? c->threshold : 0.10, &d));
    if (d.warning[0] && !c->opt.quiet) {
        fputs("clockwork: warning: ", stderr);
        cw_term_fputs(d.warning, stderr);
        fputs("\n", stderr);
    }
    const char *fmt = c->opt.format ? c->opt.format : "table";
    char *text = NULL;
    size_t len = 0;
    if (!strcmp(fmt, "json")) {
        text = diff_to_json_text(&base, &cur, &d);
    } else {
        FILE *mem = open_memstream(&text, &len);
        if (mem) {
            diff_write_table(&base, &cur, &d, mem);
            fclose(mem);
            if (text) { /* kernel names from the reports */
                char *esc = cw_term_escape(text, strlen(text), 0);
                free(text);
                text = esc;
            }
        }
    }
    if (text) {
        if (cw_write_file_atomic(c->opt.output ? c->opt.output : "-", text, strlen(text), &err)) {
            print_error(&err);
            code = CW_EXIT_USAGE;
        }
        free(text);
    }
    diff_result_free(&d);
    report_free(&base);
    report_free(&cur);
    return code;
}

static int cmd_tui(const cli *c, int argc, char **argv)
{
    if (argc == 0)
        die_usage("tui", "%s", "no plan given: clockwork tui PLAN.json");
    if (tui_reports_detect(argc, argv)) { /* reports: shown without a device */
        tui_args ra = {.opt = &c->opt, .snapshot_view = c->snapshot, .frames = c->frames,
                       .cols = c->cols, .rows = c->rows, .reports = argv,
                       .nreports = (size_t)argc};
        return tui_run(&ra);
    }
    plans ps = {0};
    load_plans(argc, argv, &ps);
    if (ps.load_failed) {
        free_plans(&ps);
        return ps.load_failed;
    }
    tui_args a = {
        .plans = ps.items, .nplans = ps.n, .opt = &c->opt, .snapshot_view = c->snapshot,
        .frames = c->frames, .cols = c->cols, .rows = c->rows, .measure = !c->static_only,
    };
    int rc = tui_run(&a);
    free_plans(&ps);
    return rc;
}

/* The allocators abort() when memory runs out (so does std::terminate):
 * the process ends with the contract's exit code, not a signal.  The
 * supervised child of `run` and the TUI install their own handling. */
static void on_abort_exit(int sig)
{
    (void)sig;
    static const char m[] = "clockwork: stopped: out of memory or an internal error "
                            "(abort); exit 4\n";
    ssize_t w = write(STDERR_FILENO, m, sizeof m - 1);
    (void)w;
    _exit(CW_EXIT_ENV);
}

int main(int argc, char **argv)
{
    /* past `ulimit -f` a write fails (EFBIG) and is reported; never a signal */
    signal(SIGXFSZ, SIG_IGN);
    /* a reader that goes away (`clockwork check P | head`): the write fails
     * (EPIPE) and says so with exit 2, instead of death by SIGPIPE */
    signal(SIGPIPE, SIG_IGN);
    signal(SIGABRT, on_abort_exit);
    static const char *const commands[] = {"check", "run", "tui", "devices", "calibrate",
                                           "diff", "merge", "help"};
    const char *cmd = NULL;
    if (argc > 1 && argv[1][0] != '-') {
        for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
            if (!strcmp(argv[1], commands[i]))
                cmd = commands[i];
        if (!cmd) {
            /* not a command: a plan file, or a typo of a command */
            struct stat st;
            if (stat(argv[1], &st) != 0) {
                const char *s = plan_suggest(argv[1], commands, 7);
                fprintf(stderr, "clockwork: '%s' is neither a command nor a plan file%s%s%s\n",
                        argv[1], s ? " — did you mean '" : "", s ? s : "", s ? "'?" : "");
                return CW_EXIT_USAGE;
            }
        }
    }
    if (cmd && !strcmp(cmd, "help")) {
        const char *h = help_for(argc > 2 ? argv[2] : NULL);
        fputs(h ? h : usage_main, stdout);
        return 0;
    }
    int shift = cmd ? 1 : 0;
    cli c;
    memset(&c, 0, sizeof c);
    cw_options_default(&c.opt);
    parse_options(cmd, argc - shift, argv + shift, &c);
    int nargs = argc - shift - optind;
    char **args = argv + shift + optind;
    if (!cmd) {
        if (nargs == 0) {
            fputs(usage_main, stderr);
            return CW_EXIT_USAGE;
        }
        cmd = isatty(STDOUT_FILENO) && isatty(STDIN_FILENO) ? "tui" : "run";
    }
    if (!strcmp(cmd, "check"))
        return cmd_check_or_run(&c, nargs, args, 0);
    if (!strcmp(cmd, "run"))
        return cmd_check_or_run(&c, nargs, args, 1);
    if (!strcmp(cmd, "tui"))
        return cmd_tui(&c, nargs, args);
    if (!strcmp(cmd, "merge"))
        return merge_main(&c.opt, nargs, args);
    if (nargs && strcmp(cmd, "diff"))
        die_usage(cmd, "unexpected argument '%s'", args[0]);
    if (!strcmp(cmd, "devices"))
        return cmd_devices(&c);
    if (!strcmp(cmd, "calibrate"))
        return cmd_calibrate(&c);
    return cmd_diff(&c, nargs, args);
}
