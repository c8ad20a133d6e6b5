/* theme.h - themes as data: semantic elements -> colours and attributes.
 *
 * Contract: a theme file is plain text, one directive per line:
 *
 *     # comment
 *     color <element> <fg> <bg> [attr...]
 *
 * element: one of theme_element_name(); fg/bg: default (-1, the terminal's
 * own), black red green yellow blue magenta cyan white, bright-<name> (or
 * gray), colorN / N for 0..255; attr: normal bold dim reverse underline
 * standout italic blink.  Elements a file does not name keep the base
 * (monochrome) style.  theme_parse() reads from memory (fuzzed) and reports
 * the first bad line as file:line: problem (with a suggestion); it never
 * reads past len and needs no NUL.  The default theme is compiled in (its
 * text equals themes/default.theme; a unit test keeps them in step).
 * theme_load() finds NAME.theme in $XDG_CONFIG_HOME/clockwork/themes (or
 * ~/.config/...), then PREFIX/share/clockwork/themes next to the binary
 * (PREFIX/bin/clockwork), then CW_SHARE_DIR/themes, then themes/ of the
 * source tree the binary was built in; a NAME with a '/' is a path.
 * Pure: no curses here; term.c maps styles onto curses pairs, degrading
 * 256 -> 16 -> 8 colours with theme_degrade().
 */
#ifndef CW_THEME_H
#define CW_THEME_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

typedef enum {
    EL_NORMAL = 0,
    EL_HEADER,    /* top bar */
    EL_TITLE,     /* product name / view name in the top bar */
    EL_COLUMN,    /* table column headings */
    EL_SELECTED,  /* cursor row */
    EL_DIM,       /* secondary text, unknown values */
    EL_GOOD,      /* verdict ok */
    EL_WARN,      /* warnings, slower/faster */
    EL_ERROR,     /* errors, failed runs */
    EL_NOTE,      /* notes */
    EL_BAR,       /* bars (prediction terms, source shares) */
    EL_SPARK,     /* sparklines, histograms */
    EL_PREDICTED, /* predicted values and roofline points */
    EL_MEASURED,  /* measured values and roofline points */
    EL_CEILING,   /* roofline ceilings */
    EL_AXIS,      /* plot axes and ticks */
    EL_KEY,       /* key bar: the key */
    EL_KEYLABEL,  /* key bar: what it does */
    EL_SECTION,   /* section titles in detail/device views */
    EL_FILTER,    /* filter prompt */
    EL_LINENUM,   /* source line numbers */
    EL_HOT,       /* source lines with a large share of the time */
    EL_STATUS,    /* status line messages */
    EL_COUNT
} theme_element;

enum {
    THEME_BOLD = 1 << 0,
    THEME_DIM = 1 << 1,
    THEME_REVERSE = 1 << 2,
    THEME_UNDERLINE = 1 << 3,
    THEME_STANDOUT = 1 << 4,
    THEME_ITALIC = 1 << 5,
    THEME_BLINK = 1 << 6,
};

typedef struct theme_style {
    int16_t fg, bg; /* -1 = terminal default, 0..255 */
    uint16_t attr;  /* THEME_* */
} theme_style;

typedef struct theme {
    char name[64];
    int monochrome; /* uses no colour at all */
    theme_style el[EL_COUNT];
} theme;

/* Names of the bundled themes, in `t` cycling order, NULL-terminated. */
extern const char *const theme_bundled[];
extern const char theme_default_text[];

const char *theme_element_name(theme_element e);
int theme_element_lookup(const char *name); /* -1 when unknown */

/* The base every theme starts from: no colours, bold/reverse only. */
void theme_monochrome(theme *t);
/* The compiled-in default (dark). */
void theme_default(theme *t);

int theme_parse(const char *path, const char *text, size_t len, theme *out,
                cw_error *err);
int theme_load_file(const char *path, theme *out, cw_error *err);
/* Find and load a theme by name (see above).  "default" and "monochrome"
 * always succeed (compiled in) unless a user file of that name is bad. */
int theme_load(const char *name, theme *out, cw_error *err);

/* A colour as the terminal can show it: 256 -> 16 -> 8.  *bold is set when
 * a bright colour had to become bold + its dark twin (8-colour terminals). */
int theme_degrade(int color, int ncolors, int *bold);
/* A foreground colour as the terminal can show it, with the attributes it
 * needs (THEME_*): like theme_degrade(), except that grey (bright-black,
 * the dim elements) on a terminal of fewer than 16 colours becomes the
 * terminal's own colour with THEME_DIM: bold black vanishes on a dark
 * background. */
int theme_degrade_fg(int color, int ncolors, uint16_t *attr);

/* NO_COLOR set (and non-empty)? */
int theme_no_color_env(void);

#endif
