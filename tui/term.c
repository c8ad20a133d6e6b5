/* term.c - curses painting of canvases (see term.h).  The only module,
 * with tui.c, that knows about curses. */
#include "term.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include "provide_curses.h"
#include "state.h"

static SCREEN *screen;
static int active;
static int colors_on;
static attr_t el_attr[EL_COUNT];
static int click_y, click_x;
/* While curses owns the terminal, anything another module or a driver
 * writes to stderr would land in the middle of the screen: fd 2 goes to a
 * temporary file instead and is replayed on the real stderr at close. */
static int saved_stderr = -1;
static FILE *errlog;

static void capture_stderr(void)
{
    errlog = tmpfile();
    if (!errlog)
        return;
    fflush(stderr);
    saved_stderr = dup(STDERR_FILENO);
    if (saved_stderr < 0 || dup2(fileno(errlog), STDERR_FILENO) < 0) {
        if (saved_stderr >= 0)
            close(saved_stderr);
        saved_stderr = -1;
        fclose(errlog);
        errlog = NULL;
    }
}

static void release_stderr(void)
{
    if (saved_stderr < 0)
        return;
    fflush(stderr);
    dup2(saved_stderr, STDERR_FILENO);
    close(saved_stderr);
    saved_stderr = -1;
    rewind(errlog);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, errlog)) > 0)
        fwrite(buf, 1, n, stderr);
    fclose(errlog);
    errlog = NULL;
}

int term_open(char *err, unsigned long errlen)
{
    return term_open_on(NULL, stdout, stdin, err, errlen);
}

int term_open_on(const char *term, FILE *out, FILE *in, char *err,
                 unsigned long errlen)
{
    if (active)
        return 0;
    screen = newterm(term, out, in);
    if (!screen) {
        const char *t = getenv("TERM");
        snprintf(err, errlen, "cannot start the terminal UI (TERM=%s): set "
                 "TERM to your terminal, or use 'clockwork run'",
                 t ? t : "(unset)");
        return -1;
    }
    set_term(screen);
    /* A terminal that cannot move the cursor (TERM=dumb, an editor's
     * shell buffer) would show one line and wait: say what works instead. */
    const char *cup = tigetstr("cup");
    if (!cup || cup == (const char *)-1) {
        endwin();
        delscreen(screen);
        screen = NULL;
        const char *tn = term ? term : getenv("TERM");
        snprintf(err, errlen, "the terminal '%s' cannot place the cursor, "
                 "which the TUI needs: run it in a terminal that can (e.g. "
                 "TERM=xterm-256color), or use 'clockwork run PLAN' for the "
                 "report and 'clockwork tui --snapshot main PLAN' for a "
                 "text screen", tn ? tn : "(unset)");
        return -1;
    }
    active = 1;
    if (out == stdout)
        capture_stderr();
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    /* Esc reacts quickly, not after a second; 100 ms still keeps arrow
     * keys whole over a slow SSH link */
    set_escdelay(100);
    curs_set(0);
    leaveok(stdscr, TRUE);
    /* clicks select, the wheel scrolls (Shift+drag still selects text in
     * most terminals) */
    mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON4_PRESSED |
#ifdef BUTTON5_PRESSED
                  BUTTON5_PRESSED |
#endif
                  0,
              NULL);
    return 0;
}

void term_close(void)
{
    if (!active)
        return;
    active = 0;
    curs_set(1);
    endwin();
    fflush(stdout);
    if (screen) {
        delscreen(screen);
        screen = NULL;
    }
    release_stderr();
}

int term_active(void)
{
    return active;
}

int term_has_colors(void)
{
    return active && has_colors();
}

static attr_t attr_bits(uint16_t a)
{
    attr_t r = A_NORMAL;
    if (a & THEME_BOLD)
        r |= A_BOLD;
    if (a & THEME_DIM)
        r |= A_DIM;
    if (a & THEME_REVERSE)
        r |= A_REVERSE;
    if (a & THEME_UNDERLINE)
        r |= A_UNDERLINE;
    if (a & THEME_STANDOUT)
        r |= A_STANDOUT;
#ifdef A_ITALIC
    if (a & THEME_ITALIC)
        r |= A_ITALIC;
#endif
    if (a & THEME_BLINK)
        r |= A_BLINK;
    return r;
}

int term_set_theme(const theme *t, int no_color)
{
    if (!active)
        return 0;
    int want = !no_color && !t->monochrome && has_colors();
    if (want && !colors_on) {
        if (start_color() == OK) {
            colors_on = 1;
            use_default_colors(); /* -1 = the terminal's own colours */
        }
    }
    int use = want && colors_on && COLOR_PAIRS > EL_COUNT;
    /* Without colours a theme's selection (a background colour) would not
     * show: the monochrome styles (reverse, bold, underline) stand in. */
    theme mono;
    theme_monochrome(&mono);
    for (int e = 0; e < EL_COUNT; e++) {
        const theme_style *s = use ? &t->el[e] : &mono.el[e];
        if (!use && t->monochrome)
            s = &t->el[e];
        uint16_t bits = s->attr;
        if (use) {
            int fg = theme_degrade_fg(s->fg, COLORS, &bits);
            int bg = theme_degrade(s->bg, COLORS, NULL);
            init_pair((short)(e + 1), (short)fg, (short)bg);
            el_attr[e] = attr_bits(bits) | COLOR_PAIR(e + 1);
        } else {
            el_attr[e] = attr_bits(bits);
        }
    }
    return use;
}

void term_size(int *rows, int *cols)
{
    int r = 0, c = 0;
    if (active)
        getmaxyx(stdscr, r, c);
    *rows = r;
    *cols = c;
}

void term_paint(const canvas *cv, int full)
{
    if (!active)
        return;
    if (full)
        clearok(curscr, TRUE);
    wchar_t run[1024];
    for (int y = 0; y < cv->rows; y++) {
        int x = 0;
        while (x < cv->cols) {
            const canvas_cell *c0 = &cv->cells[(size_t)y * (size_t)cv->cols +
                                               (size_t)x];
            int n = 0;
            while (x + n < cv->cols && n < 1023 &&
                   cv->cells[(size_t)y * (size_t)cv->cols + (size_t)(x + n)].el ==
                       c0->el) {
                run[n] = (wchar_t)cv->cells[(size_t)y * (size_t)cv->cols +
                                            (size_t)(x + n)].ch;
                n++;
            }
            run[n] = L'\0';
            attrset(c0->el < EL_COUNT ? el_attr[c0->el] : A_NORMAL);
            /* the bottom-right cell makes addnwstr return ERR (the cursor
             * cannot advance); the text is drawn all the same */
            mvaddnwstr(y, x, run, n);
            x += n;
        }
    }
    attrset(A_NORMAL);
    wnoutrefresh(stdscr);
    doupdate();
}

void term_last_click(int *y, int *x)
{
    *y = click_y;
    *x = click_x;
}

int term_getkey(int timeout_ms)
{
    if (!active)
        return -1;
    timeout(timeout_ms);
    int ch = getch();
    switch (ch) {
    case ERR: return -1;
    case KEY_UP: return KEY_K_UP;
    case KEY_DOWN: return KEY_K_DOWN;
    case KEY_LEFT: return KEY_K_LEFT;
    case KEY_RIGHT: return KEY_K_RIGHT;
    case KEY_PPAGE: return KEY_K_PGUP;
    case KEY_NPAGE: return KEY_K_PGDN;
    case KEY_HOME: return KEY_K_HOME;
    case KEY_END: return KEY_K_END;
    case KEY_ENTER:
    case '\n':
    case '\r': return KEY_K_ENTER;
    case '\t': return KEY_K_TAB;
    case KEY_BTAB: return KEY_K_BTAB;
    case 27: return KEY_K_ESC;
    case KEY_BACKSPACE:
    case 127:
    case 8: return KEY_K_BACKSPACE;
    case KEY_RESIZE: return KEY_K_RESIZE;
    case KEY_F(1): return KEY_K_F1;
    case KEY_F(3): return KEY_K_F3;
    case KEY_F(6): return KEY_K_F6;
    case KEY_F(10): return KEY_K_F10;
    case KEY_MOUSE: {
        MEVENT ev;
        if (getmouse(&ev) != OK)
            return -1;
        click_y = ev.y;
        click_x = ev.x;
        if (ev.bstate & BUTTON4_PRESSED)
            return KEY_K_UP;
#ifdef BUTTON5_PRESSED
        if (ev.bstate & BUTTON5_PRESSED)
            return KEY_K_DOWN;
#endif
        if (ev.bstate & BUTTON1_DOUBLE_CLICKED)
            return KEY_K_DCLICK;
        if (ev.bstate & BUTTON1_CLICKED)
            return KEY_K_CLICK;
        return -1;
    }
    default:
        return ch >= 0 && ch < 256 ? ch : -1;
    }
}
