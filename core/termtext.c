/* termtext.c - escaping text for terminals (see termtext.h). */
#include "termtext.h"
#include "alloc.h"

#include <stdlib.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    size_t need;
    unsigned min;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF) {
        need = 2;
        min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        need = 3;
        min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        need = 4;
        min = 0x10000;
    } else {
        return 0;
    }
    if (n < need)
        return 0;
    unsigned cp = c & (0x7F >> need);
    for (size_t i = 1; i < need; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return need;
}

char *cw_term_escape(const char *s, size_t len, int flags)
{
    int keep_tab = flags & CW_TERM_KEEP_TAB, keep_nl = !(flags & CW_TERM_ONE_LINE);
    const unsigned char *u = (const unsigned char *)(s ? s : "");
    if (!s)
        len = 0;
    char *out = xmalloc(len * 6 + 1);
    static const char hex[] = "0123456789abcdef";
    size_t j = 0;
    for (size_t i = 0; i < len;) {
        unsigned c = u[i];
        size_t k = utf8_len(u + i, len - i);
        if (k == 1 && (c >= 0x20 && c != 0x7F)) {
            out[j++] = (char)c;
        } else if (k == 1 && ((keep_nl && c == '\n') || (keep_tab && c == '\t'))) {
            out[j++] = (char)c;
        } else if (k == 2 && c == 0xC2 && u[i + 1] < 0xA0) {
            /* C1 control, e.g. U+009B (CSI) */
            memcpy(out + j, "\\u00", 4);
            out[j + 4] = hex[u[i + 1] >> 4];
            out[j + 5] = hex[u[i + 1] & 15];
            j += 6;
        } else if (k > 1) {
            memcpy(out + j, u + i, k);
            j += k;
        } else {
            out[j++] = '\\';
            out[j++] = 'x';
            out[j++] = hex[c >> 4];
            out[j++] = hex[c & 15];
            k = 1;
        }
        i += k ? k : 1;
    }
    out[j] = 0;
    return out;
}

void cw_term_message(const char *text)
{
    fputs("clockwork: ", stderr);
    cw_term_fputs(text, stderr);
    fputc('\n', stderr);
}

char *cw_term_line(const char *s)
{
    return cw_term_escape(s, s ? strlen(s) : 0, CW_TERM_ONE_LINE);
}

void cw_term_fputs(const char *s, FILE *f)
{
    char *e = cw_term_line(s);
    fputs(e, f);
    free(e);
}
