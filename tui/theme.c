/* theme.c - theme files: parse, find, degrade (see theme.h). */
#include "input.h"
#include "theme.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef CW_SHARE_DIR
#define CW_SHARE_DIR "/usr/local/share/clockwork"
#endif

const char *const theme_bundled[] = {"default", "light", "high-contrast",
                                     "monochrome", NULL};

/* Keep in step with themes/default.theme (test_tui_theme checks). */
const char theme_default_text[] =
    "# Clockwork default theme (dark terminal background).\n"
    "# color <element> <fg> <bg> [attr...]   -- colours: default, black, red,\n"
    "# green, yellow, blue, magenta, cyan, white, bright-<name>, color0..255.\n"
    "color normal    default      default\n"
    "color header    black        cyan\n"
    "color title     black        cyan         bold\n"
    "color column    green        default      bold\n"
    "color selected  black        bright-cyan\n"
    "color dim       bright-black default\n"
    "color good      green        default\n"
    "color warn      yellow       default      bold\n"
    "color error     bright-red   default      bold\n"
    "color note      cyan         default\n"
    "color bar       blue         default\n"
    "color spark     cyan         default\n"
    "color predicted yellow       default\n"
    "color measured  bright-green default      bold\n"
    "color ceiling   magenta      default\n"
    "color axis      bright-black default\n"
    "color key       black        cyan\n"
    "color keylabel  default      default\n"
    "color section   cyan         default      bold\n"
    "color filter    yellow       default      bold\n"
    "color linenum   bright-black default\n"
    "color hot       bright-red   default\n"
    "color status    yellow       default\n";

static const char *const element_names[EL_COUNT] = {
    [EL_NORMAL] = "normal",       [EL_HEADER] = "header",
    [EL_TITLE] = "title",         [EL_COLUMN] = "column",
    [EL_SELECTED] = "selected",   [EL_DIM] = "dim",
    [EL_GOOD] = "good",           [EL_WARN] = "warn",
    [EL_ERROR] = "error",         [EL_NOTE] = "note",
    [EL_BAR] = "bar",             [EL_SPARK] = "spark",
    [EL_PREDICTED] = "predicted", [EL_MEASURED] = "measured",
    [EL_CEILING] = "ceiling",     [EL_AXIS] = "axis",
    [EL_KEY] = "key",             [EL_KEYLABEL] = "keylabel",
    [EL_SECTION] = "section",     [EL_FILTER] = "filter",
    [EL_LINENUM] = "linenum",     [EL_HOT] = "hot",
    [EL_STATUS] = "status",
};

static const char *const color_names[8] = {
    "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"};

static const struct {
    const char *name;
    uint16_t bit;
} attr_names[] = {
    {"normal", 0},
    {"bold", THEME_BOLD},
    {"dim", THEME_DIM},
    {"reverse", THEME_REVERSE},
    {"underline", THEME_UNDERLINE},
    {"standout", THEME_STANDOUT},
    {"italic", THEME_ITALIC},
    {"blink", THEME_BLINK},
};

const char *theme_element_name(theme_element e)
{
    return (unsigned)e < EL_COUNT ? element_names[e] : "?";
}

int theme_element_lookup(const char *name)
{
    for (int i = 0; i < EL_COUNT; i++)
        if (strcmp(element_names[i], name) == 0)
            return i;
    return -1;
}

void theme_monochrome(theme *t)
{
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "monochrome");
    t->monochrome = 1;
    for (int i = 0; i < EL_COUNT; i++) {
        t->el[i].fg = -1;
        t->el[i].bg = -1;
        t->el[i].attr = 0;
    }
    t->el[EL_HEADER].attr = THEME_REVERSE;
    t->el[EL_TITLE].attr = THEME_REVERSE | THEME_BOLD;
    t->el[EL_COLUMN].attr = THEME_BOLD | THEME_UNDERLINE;
    t->el[EL_SELECTED].attr = THEME_REVERSE;
    t->el[EL_DIM].attr = THEME_DIM;
    t->el[EL_WARN].attr = THEME_BOLD;
    t->el[EL_ERROR].attr = THEME_BOLD | THEME_UNDERLINE;
    t->el[EL_MEASURED].attr = THEME_BOLD;
    t->el[EL_AXIS].attr = THEME_DIM;
    t->el[EL_KEY].attr = THEME_REVERSE;
    t->el[EL_SECTION].attr = THEME_BOLD;
    t->el[EL_FILTER].attr = THEME_BOLD;
    t->el[EL_LINENUM].attr = THEME_DIM;
    t->el[EL_HOT].attr = THEME_BOLD;
    t->el[EL_STATUS].attr = THEME_BOLD;
}

void theme_default(theme *t)
{
    cw_error err;
    if (theme_parse("<built-in default>", theme_default_text,
                    sizeof theme_default_text - 1, t, &err) != 0)
        theme_monochrome(t); /* cannot happen: unit-tested */
    snprintf(t->name, sizeof t->name, "default");
}

static void set_err(cw_error *err, const char *file, int line,
                    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void set_err(cw_error *err, const char *file, int line,
                    const char *fmt, ...)
{
    if (!err)
        return;
    memset(err, 0, sizeof *err);
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    err->line = line;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->text, sizeof err->text, fmt, ap);
    va_end(ap);
}

/* Edit distance, capped: for "did you mean" on element names. */
static int distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 31 || lb > 31)
        return 99;
    int d[32][32];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < c)
                c = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < c)
                c = d[i][j - 1] + 1;
            d[i][j] = c;
        }
    return d[la][lb];
}

static const char *suggest(const char *w, const char *const *cands, size_t n)
{
    const char *best = NULL;
    int bd = 3;
    for (size_t i = 0; i < n; i++) {
        if (!cands[i])
            continue;
        int dd = distance(w, cands[i]);
        if (dd < bd) {
            bd = dd;
            best = cands[i];
        }
    }
    return best;
}

/* Parse a colour word.  Returns 0 and sets *out, or -1. */
static int parse_color(const char *w, int *out)
{
    if (strcmp(w, "default") == 0 || strcmp(w, "-1") == 0) {
        *out = -1;
        return 0;
    }
    for (int i = 0; i < 8; i++)
        if (strcmp(w, color_names[i]) == 0) {
            *out = i;
            return 0;
        }
    if (strcmp(w, "gray") == 0 || strcmp(w, "grey") == 0) {
        *out = 8;
        return 0;
    }
    if (strncmp(w, "bright-", 7) == 0)
        for (int i = 0; i < 8; i++)
            if (strcmp(w + 7, color_names[i]) == 0) {
                *out = 8 + i;
                return 0;
            }
    const char *num = w;
    if (strncmp(w, "color", 5) == 0)
        num = w + 5;
    if (*num >= '0' && *num <= '9' && strlen(num) <= 3) {
        int v = 0;
        for (const char *p = num; *p; p++) {
            if (*p < '0' || *p > '9')
                return -1;
            v = v * 10 + (*p - '0');
        }
        if (v > 255)
            return -1;
        *out = v;
        return 0;
    }
    return -1;
}

#define MAX_WORDS 12
#define WORD_LEN 32

int theme_parse(const char *path, const char *text, size_t len, theme *out,
                cw_error *err)
{
    theme t;
    theme_monochrome(&t);
    t.monochrome = 1;
    snprintf(t.name, sizeof t.name, "%s", path ? path : "theme");
    if (!path)
        path = "<theme>";
    size_t pos = 0;
    int line = 0;
    while (pos < len) {
        line++;
        size_t end = pos;
        while (end < len && text[end] != '\n')
            end++;
        /* split the line into words; '#' starts a comment */
        char words[MAX_WORDS][WORD_LEN];
        int nw = 0;
        size_t i = pos;
        while (i < end) {
            while (i < end && (text[i] == ' ' || text[i] == '\t' ||
                               text[i] == '\r'))
                i++;
            if (i >= end || text[i] == '#')
                break;
            size_t s = i;
            while (i < end && text[i] != ' ' && text[i] != '\t' &&
                   text[i] != '\r' && text[i] != '#')
                i++;
            if (nw == MAX_WORDS) {
                set_err(err, path, line, "too many words (at most %d)",
                        MAX_WORDS);
                return -1;
            }
            size_t wl = i - s;
            if (wl >= WORD_LEN) {
                set_err(err, path, line, "word of %zu characters is too "
                        "long (at most %d)", wl, WORD_LEN - 1);
                return -1;
            }
            for (size_t k = s; k < i; k++)
                if (text[k] == '\0' || (unsigned char)text[k] < 32) {
                    set_err(err, path, line, "control character in the "
                            "line; a theme file is plain text");
                    return -1;
                }
            memcpy(words[nw], text + s, wl);
            words[nw][wl] = '\0';
            nw++;
        }
        pos = end < len ? end + 1 : end;
        if (nw == 0)
            continue;
        if (strcmp(words[0], "color") != 0) {
            set_err(err, path, line, "unknown directive '%s': expected "
                    "'color <element> <fg> <bg> [attr...]'", words[0]);
            return -1;
        }
        if (nw < 4) {
            set_err(err, path, line, "'color' needs an element, a "
                    "foreground and a background colour, e.g. 'color "
                    "header black cyan bold'");
            return -1;
        }
        int e = theme_element_lookup(words[1]);
        if (e < 0) {
            const char *s = suggest(words[1], element_names, EL_COUNT);
            if (s)
                set_err(err, path, line, "unknown element '%s' (did you "
                        "mean '%s'?)", words[1], s);
            else
                set_err(err, path, line, "unknown element '%s' (elements: "
                        "normal, header, title, column, selected, dim, good, "
                        "warn, error, note, bar, spark, predicted, measured, "
                        "ceiling, axis, key, keylabel, section, filter, "
                        "linenum, hot, status)", words[1]);
            return -1;
        }
        int fg, bg;
        for (int k = 2; k <= 3; k++) {
            int *dst = k == 2 ? &fg : &bg;
            if (parse_color(words[k], dst) != 0) {
                set_err(err, path, line, "unknown %s colour '%s' (use "
                        "default, black, red, green, yellow, blue, magenta, "
                        "cyan, white, bright-<name> or color0..color255)",
                        k == 2 ? "foreground" : "background", words[k]);
                return -1;
            }
        }
        uint16_t attr = 0;
        for (int k = 4; k < nw; k++) {
            size_t a;
            for (a = 0; a < sizeof attr_names / sizeof attr_names[0]; a++)
                if (strcmp(words[k], attr_names[a].name) == 0)
                    break;
            if (a == sizeof attr_names / sizeof attr_names[0]) {
                set_err(err, path, line, "unknown attribute '%s' (use "
                        "normal, bold, dim, reverse, underline, standout, "
                        "italic or blink)", words[k]);
                return -1;
            }
            attr |= attr_names[a].bit;
        }
        t.el[e].fg = (int16_t)fg;
        t.el[e].bg = (int16_t)bg;
        t.el[e].attr = attr;
        if (fg >= 0 || bg >= 0)
            t.monochrome = 0;
    }
    *out = t;
    return 0;
}

static int parse_theme(const char *path, const char *text, size_t len, void *out,
                       cw_error *err)
{
    return theme_parse(path, text, len, out, err);
}

int theme_load_file(const char *path, theme *out, cw_error *err)
{
    return cw_parse_input(path, "theme file", 0, 1u << 20, 1, parse_theme, out, err);
}

static int file_exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Candidate folders in search order; fills dirs, returns how many:
 * the user's, the installed ones (next to the binary: PREFIX/bin/../share,
 * whatever PREFIX was; then the compiled-in CW_SHARE_DIR), the source
 * tree's (the binary is <repo>/build/clockwork). */
static int theme_dirs(char dirs[][PATH_MAX], int max)
{
    int n = 0;
    const char *xdg = getenv("XDG_CONFIG_HOME");
    const char *home = getenv("HOME");
    if (xdg && *xdg && n < max)
        snprintf(dirs[n++], PATH_MAX, "%.4000s/clockwork/themes", xdg);
    else if (home && *home && n < max)
        snprintf(dirs[n++], PATH_MAX, "%.4000s/.config/clockwork/themes",
                 home);
    char exe[PATH_MAX];
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash = NULL;
    if (k > 0) {
        exe[k] = '\0';
        slash = strrchr(exe, '/');
        if (slash)
            *slash = '\0'; /* exe = the binary's folder */
    }
    char *up = slash ? strrchr(exe, '/') : NULL;
    if (up && n < max) /* PREFIX/bin -> PREFIX/share/clockwork/themes */
        snprintf(dirs[n++], PATH_MAX, "%.*s/share/clockwork/themes",
                 (int)(up - exe), exe);
    if (n < max)
        snprintf(dirs[n++], PATH_MAX, "%s/themes", CW_SHARE_DIR);
    if (slash && n < max)
        snprintf(dirs[n++], PATH_MAX, "%.4000s/themes", exe);
    if (up && n < max)
        snprintf(dirs[n++], PATH_MAX, "%.*s/themes", (int)(up - exe), exe);
    return n;
}

int theme_load(const char *name, theme *out, cw_error *err)
{
    if (!name || !*name)
        name = "default";
    if (strchr(name, '/'))
        return theme_load_file(name, out, err);
    if (strlen(name) > 63) {
        set_err(err, "", 0, "theme name longer than 63 characters");
        return -1;
    }
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9') || *p == '-' || *p == '_' ||
              *p == '.')) {
            set_err(err, name, 0, "bad theme name '%s': use letters, "
                    "digits, '-', '_' (or a path with a '/')", name);
            return -1;
        }
    char dirs[6][PATH_MAX];
    int nd = theme_dirs(dirs, 6);
    for (int i = 0; i < nd; i++) {
        char path[PATH_MAX + 80];
        snprintf(path, sizeof path, "%.4000s/%.63s.theme", dirs[i], name);
        if (file_exists(path)) {
            int rc = theme_load_file(path, out, err);
            if (rc == 0)
                snprintf(out->name, sizeof out->name, "%s", name);
            return rc;
        }
    }
    if (strcmp(name, "default") == 0) {
        theme_default(out);
        return 0;
    }
    if (strcmp(name, "monochrome") == 0) {
        theme_monochrome(out);
        return 0;
    }
    char where[2048] = "";
    size_t o = 0;
    for (int i = 0; i < nd && o + 2 < sizeof where; i++) {
        int k = snprintf(where + o, sizeof where - o, "%s%.500s",
                         i ? ", " : "", dirs[i]);
        if (k < 0)
            break;
        o += (size_t)k;
        if (o >= sizeof where)
            o = sizeof where - 1;
    }
    set_err(err, name, 0, "theme '%s' not found (looked in %s; bundled: "
            "default, light, high-contrast, monochrome)", name, where);
    return -1;
}

/* xterm's 16 base colours, as RGB. */
static const unsigned char base16[16][3] = {
    {0, 0, 0},       {205, 0, 0},     {0, 205, 0},     {205, 205, 0},
    {0, 0, 238},     {205, 0, 205},   {0, 205, 205},   {229, 229, 229},
    {127, 127, 127}, {255, 0, 0},     {0, 255, 0},     {255, 255, 0},
    {92, 92, 255},   {255, 0, 255},   {0, 255, 255},   {255, 255, 255},
};

static void rgb256(int c, int rgb[3])
{
    if (c < 16) {
        for (int i = 0; i < 3; i++)
            rgb[i] = base16[c][i];
    } else if (c < 232) {
        static const int lv[6] = {0, 95, 135, 175, 215, 255};
        c -= 16;
        rgb[0] = lv[c / 36];
        rgb[1] = lv[(c / 6) % 6];
        rgb[2] = lv[c % 6];
    } else {
        int g = 8 + (c - 232) * 10;
        rgb[0] = rgb[1] = rgb[2] = g;
    }
}

int theme_degrade(int color, int ncolors, int *bold)
{
    if (color < 0)
        return -1;
    if (color >= 16 && ncolors < 256) {
        int rgb[3], best = 0;
        long bd = -1;
        rgb256(color, rgb);
        for (int i = 0; i < 16; i++) {
            long d = 0;
            for (int k = 0; k < 3; k++) {
                long dd = rgb[k] - base16[i][k];
                d += dd * dd;
            }
            if (bd < 0 || d < bd) {
                bd = d;
                best = i;
            }
        }
        color = best;
    }
    if (color >= 8 && ncolors < 16) {
        color -= 8;
        if (bold)
            *bold = 1;
    }
    if (ncolors > 0 && color >= ncolors)
        color %= ncolors;
    return color;
}

int theme_no_color_env(void)
{
    const char *v = getenv("NO_COLOR");
    return v && *v;
}

int theme_degrade_fg(int color, int ncolors, uint16_t *attr)
{
    int bold = 0;
    int c16 = theme_degrade(color, 16, NULL);
    if (c16 == 8 && ncolors < 16) {
        *attr |= THEME_DIM;
        return -1;
    }
    int c = theme_degrade(color, ncolors, &bold);
    if (bold)
        *attr |= THEME_BOLD;
    return c;
}
