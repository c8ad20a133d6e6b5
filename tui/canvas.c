/* canvas.c - cell grid for the pure renderers (see canvas.h). */
#include "canvas.h"
#include "alloc.h"
#include "utf8.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void canvas_init(canvas *c, int rows, int cols, int utf8)
{
    memset(c, 0, sizeof *c);
    c->utf8 = utf8;
    canvas_resize(c, rows, cols);
}

void canvas_resize(canvas *c, int rows, int cols)
{
    if (rows < 0)
        rows = 0;
    if (cols < 0)
        cols = 0;
    free(c->cells);
    c->rows = rows;
    c->cols = cols;
    c->cells = xcalloc((size_t)rows * (size_t)cols, sizeof *c->cells);
    c->overflow = 0;
    canvas_clear(c, 0);
}

void canvas_free(canvas *c)
{
    free(c->cells);
    memset(c, 0, sizeof *c);
}

void canvas_clear(canvas *c, uint8_t el)
{
    size_t n = (size_t)c->rows * (size_t)c->cols;
    for (size_t i = 0; i < n; i++) {
        c->cells[i].ch = ' ';
        c->cells[i].el = el;
    }
}

canvas_cell *canvas_at(canvas *c, int y, int x)
{
    if (y < 0 || x < 0 || y >= c->rows || x >= c->cols)
        return NULL;
    return &c->cells[(size_t)y * (size_t)c->cols + (size_t)x];
}

/* What the terminal shows for a code point it cannot draw: one ASCII
 * character each, the look of the glyph kept where it can be. */
static const struct ascii_stand_in {
    char ascii;
    uint16_t cps[8]; /* 0 ends the list */
} ascii_stand_ins[] = {
    {'u', {0xB5}},                                          /* µ */
    {'+', {0xB1}},                                          /* ± */
    {'~', {0xB7, 0x2026}},                                  /* · … */
    {'x', {0xD7}},                                          /* × */
    {'-', {0x2500, 0x2501, 0x2574, 0x2576}},                /* horizontal lines */
    {'|', {0x2502, 0x2503}},                                /* vertical lines */
    {'^', {0x25B2, 0x2191}},
    {'v', {0x25BC, 0x2193}},
    {'>', {0x25B6, 0x2192}},
    {'<', {0x25C0, 0x2190}},
    {'*', {0x25CF, 0x2022}},
    {'o', {0x25CB}},
    {'#', {0x2588, 0x2589, 0x258A, 0x258B, 0x2587, 0x2586, 0x2585}}, /* tall blocks */
    {'=', {0x2584, 0x2583, 0x258C, 0x258D}},                /* middle blocks */
    {'_', {0x2582, 0x2581, 0x258E, 0x258F}},                /* low blocks */
};

char canvas_ascii(uint32_t cp)
{
    if (cp < 128)
        return (char)cp;
    for (size_t i = 0; i < sizeof ascii_stand_ins / sizeof *ascii_stand_ins; i++)
        for (size_t j = 0; j < 8 && ascii_stand_ins[i].cps[j]; j++)
            if (ascii_stand_ins[i].cps[j] == cp)
                return ascii_stand_ins[i].ascii;
    if (cp >= 0x2500 && cp <= 0x257F)
        return '+'; /* other box drawing: corners, tees */
    if (cp >= 0x2800 && cp <= 0x28FF)
        return cp == 0x2800 ? ' ' : '.'; /* braille */
    return '?';
}

int canvas_decode(const char *s, uint32_t *cp)
{
    const unsigned char *u = (const unsigned char *)s;
    if (u[0] < 0x80) {
        *cp = u[0];
        return 1;
    }
    int n;
    uint32_t v;
    if ((u[0] & 0xE0) == 0xC0) {
        n = 2;
        v = u[0] & 0x1F;
    } else if ((u[0] & 0xF0) == 0xE0) {
        n = 3;
        v = u[0] & 0x0F;
    } else if ((u[0] & 0xF8) == 0xF0) {
        n = 4;
        v = u[0] & 0x07;
    } else {
        *cp = '?';
        return 1;
    }
    for (int i = 1; i < n; i++) {
        if ((u[i] & 0xC0) != 0x80) {
            *cp = '?';
            return 1;
        }
        v = (v << 6) | (u[i] & 0x3F);
    }
    /* Overlong forms, surrogates and code points past Unicode: '?' */
    if ((n == 2 && v < 0x80) || (n == 3 && v < 0x800) ||
        (n == 4 && v < 0x10000) || v > 0x10FFFF ||
        (v >= 0xD800 && v <= 0xDFFF)) {
        *cp = '?';
        return n;
    }
    *cp = v;
    return n;
}

int canvas_width(const char *s)
{
    int w = 0;
    while (*s) {
        uint32_t cp;
        s += canvas_decode(s, &cp);
        w++;
    }
    return w;
}

static uint32_t sanitize(const canvas *c, uint32_t cp)
{
    if (cp < 32 || cp == 127)
        return cp == '\t' ? ' ' : '?';
    if (cp >= 0x80 && cp < 0xA0)
        return '?';
    /* Wide (CJK, emoji) code points would take two cells: keep the grid
     * honest by showing them as '?'. */
    if (cp >= 0x1100 && !(cp >= 0x2000 && cp <= 0x2BFF))
        return '?';
    if (!c->utf8)
        return (uint32_t)(unsigned char)canvas_ascii(cp);
    return cp;
}

void canvas_putc(canvas *c, int y, int x, uint32_t ch, uint8_t el)
{
    canvas_cell *cell = canvas_at(c, y, x);
    if (!cell) {
        c->overflow++;
        return;
    }
    cell->ch = sanitize(c, ch);
    cell->el = el;
}

/* Non-zero when the w cells from (y, x) are on the canvas; a span that is
 * not counts as an overflow (an empty one is neither). */
static int span_fits(canvas *c, int y, int x, int w)
{
    if (w <= 0)
        return 0;
    if (y < 0 || y >= c->rows || x < 0 || x + w > c->cols) {
        c->overflow++;
        return 0;
    }
    return 1;
}

void canvas_fill(canvas *c, int y, int x, int w, uint32_t ch, uint8_t el)
{
    if (!span_fits(c, y, x, w))
        return;
    for (int i = 0; i < w; i++)
        canvas_putc(c, y, x + i, ch, el);
}

void canvas_paint(canvas *c, int y, int x, int w, uint8_t el)
{
    if (!span_fits(c, y, x, w))
        return;
    for (int i = 0; i < w; i++)
        c->cells[(size_t)y * (size_t)c->cols + (size_t)(x + i)].el = el;
}

int canvas_text(canvas *c, int y, int x, int w, uint8_t el, const char *s)
{
    if (!s)
        s = "";
    if (w < 0)
        w = c->cols - x;
    if (w == 0)
        return 0;
    if (y < 0 || y >= c->rows || x < 0 || x + w > c->cols) {
        c->overflow++;
        return 0;
    }
    int len = canvas_width(s);
    int n = len > w ? w - 1 : len; /* room for the ellipsis */
    int i = 0;
    while (i < n && *s) {
        uint32_t cp;
        s += canvas_decode(s, &cp);
        canvas_putc(c, y, x + i, cp, el);
        i++;
    }
    if (len > w) {
        canvas_putc(c, y, x + i, 0x2026, el);
        i++;
    }
    return i;
}

int canvas_text_right(canvas *c, int y, int x, int w, uint8_t el,
                      const char *s)
{
    if (!s)
        s = "";
    int len = canvas_width(s);
    if (len >= w)
        return canvas_text(c, y, x, w, el, s);
    return canvas_text(c, y, x + (w - len), len, el, s);
}

int canvas_printf(canvas *c, int y, int x, int w, uint8_t el,
                  const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return canvas_text(c, y, x, w, el, buf);
}

static size_t put_utf8(char *b, size_t n, size_t at, uint32_t cp)
{
    char tmp[4];
    size_t k = cw_utf8_encode(cp, tmp);
    if (at + k >= n)
        return at;
    memcpy(b + at, tmp, k);
    return at + k;
}

size_t canvas_row_text(const canvas *c, int y, char *buf, size_t n)
{
    if (n == 0)
        return 0;
    buf[0] = '\0';
    if (y < 0 || y >= c->rows)
        return 0;
    int last = c->cols - 1;
    const canvas_cell *row = &c->cells[(size_t)y * (size_t)c->cols];
    while (last >= 0 && row[last].ch == ' ')
        last--;
    size_t at = 0;
    for (int x = 0; x <= last; x++)
        at = put_utf8(buf, n, at, row[x].ch);
    buf[at] = '\0';
    return at;
}

void canvas_write_text(const canvas *c, FILE *out)
{
    size_t n = (size_t)c->cols * 4 + 1;
    char *buf = xmalloc(n);
    for (int y = 0; y < c->rows; y++) {
        canvas_row_text(c, y, buf, n);
        fputs(buf, out);
        fputc('\n', out);
    }
    free(buf);
}
