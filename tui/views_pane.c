/* views_pane.c - panes: tall off-screen canvases that scrolling views
 * draw into, then blit through a window with a scroll bar.  See views.h. */
#include "views_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "theme.h"

/* ---- panes: tall off-screen canvases for scrolling views ---- */


void pane_init(pane *p, int w, int h, int utf8)
{
    canvas_init(&p->cv, h, w, utf8);
    p->y = 0;
}

void pane_blank(pane *p)
{
    p->y++;
}

void pane_section(pane *p, const char *title)
{
    if (p->y >= p->cv.rows)
        return;
    if (p->y > 0)
        p->y++;
    if (p->y >= p->cv.rows)
        return;
    canvas_fill(&p->cv, p->y, 0, p->cv.cols, 0x2500, EL_DIM);
    char t[128];
    snprintf(t, sizeof t, " %s ", title);
    int tw = canvas_width(t);
    if (p->cv.cols > 3)
        canvas_text(&p->cv, p->y, 2, tw < p->cv.cols - 2 ? tw : p->cv.cols - 2,
                    EL_SECTION, t);
    p->y++;
}

/* Word-wrapped text from column indent; continuation lines indent+hang. */
void pane_wrap(pane *p, int indent, int hang, uint8_t el, const char *s)
{
    int w = p->cv.cols - indent;
    if (!s || w <= 4)
        return;
    int first = 1;
    while (*s && p->y < p->cv.rows) {
        int avail = first ? w : w - hang;
        int x = first ? indent : indent + hang;
        /* take as many code points as fit, break at the last space */
        const char *q = s, *brk = NULL;
        int n = 0;
        while (*q && *q != '\n' && n < avail) {
            uint32_t cp;
            int b = canvas_decode(q, &cp);
            if (cp == ' ')
                brk = q;
            q += b;
            n++;
        }
        const char *end = q;
        if (*q && *q != '\n' && brk && brk > s)
            end = brk;
        char line[1024];
        size_t len = (size_t)(end - s);
        if (len >= sizeof line)
            len = sizeof line - 1;
        memcpy(line, s, len);
        line[len] = '\0';
        canvas_text(&p->cv, p->y, x, avail, el, line);
        p->y++;
        s = end;
        while (*s == ' ' || *s == '\n')
            s++;
        first = 0;
    }
}

void pane_kv(pane *p, int indent, const char *key, uint8_t el,
                 const char *val)
{
    if (p->y >= p->cv.rows)
        return;
    int kw = 14;
    canvas_text(&p->cv, p->y, indent, kw, EL_DIM, key);
    if (p->cv.cols - indent - kw > 0) {
        int save = p->y;
        pane_wrap(p, indent + kw, 0, el, val);
        if (p->y == save)
            p->y++;
    } else {
        p->y++;
    }
}

/* Copy pane lines [scroll, scroll + r.h) into the screen rect. */
void pane_blit(canvas *cv, const rect *r, const pane *p, int scroll)
{
    for (int i = 0; i < r->h; i++) {
        int py = scroll + i;
        if (py >= p->y || py >= p->cv.rows)
            break;
        for (int x = 0; x < r->w && x < p->cv.cols; x++) {
            const canvas_cell *s = &p->cv.cells[(size_t)py * (size_t)p->cv.cols +
                                                (size_t)x];
            canvas_putc(cv, r->y + i, r->x + x, s->ch, s->el);
        }
    }
}

int views_clamp_scroll(tui_state *st, tui_view v, int content, int h)
{
    int max = content - h;
    if (max < 0)
        max = 0;
    if (st->scroll[v] > max)
        st->scroll[v] = max;
    if (st->scroll[v] < 0)
        st->scroll[v] = 0;
    return st->scroll[v];
}

void views_scrollbar(canvas *cv, const rect *r, int scroll, int content)
{
    if (content <= r->h || r->h < 3 || r->w < 2)
        return;
    int x = r->x + r->w - 1;
    int th = r->h * r->h / content;
    if (th < 1)
        th = 1;
    int ty = (int)((long)scroll * (r->h - th) / (content - r->h));
    for (int i = 0; i < r->h; i++)
        canvas_putc(cv, r->y + i, x, i >= ty && i < ty + th ? 0x2588 : 0x2502,
                    EL_DIM);
}

void views_show_panes(canvas *cv, const rect *body, tui_state *st, tui_view v,
                      const pane *a, const pane *b, int w1, int scrollbar)
{
    int content = b && b->y > a->y ? b->y : a->y;
    int s = views_clamp_scroll(st, v, content, body->h);
    rect ra = {body->y, body->x, body->h, w1};
    pane_blit(cv, &ra, a, s);
    if (b) {
        rect rb = {body->y, body->x + w1 + 1, body->h, body->w - w1 - 2};
        pane_blit(cv, &rb, b, s);
    }
    if (!b || scrollbar) {
        rect rs = {body->y, body->x, body->h, body->w};
        views_scrollbar(cv, &rs, s, content);
    }
}
