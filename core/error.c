/* error.c - see error.h. */
#include "error.h"

#include <stdio.h>
#include <string.h>

void cw_error_clear(cw_error *err)
{
    if (err)
        memset(err, 0, sizeof *err);
}

void cw_error_set(cw_error *err, const char *file, int line, int column,
                  const char *fmt, ...)
{
    if (!err)
        return;
    err->kind = CW_ERR_INPUT;
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    err->line = line;
    err->column = column;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->text, sizeof err->text, fmt, ap);
    va_end(ap);
}

void cw_error_set_env(cw_error *err, const char *file, const char *fmt, ...)
{
    if (!err)
        return;
    err->kind = CW_ERR_ENV;
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    err->line = err->column = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->text, sizeof err->text, fmt, ap);
    va_end(ap);
}

void cw_error_format(const cw_error *err, char *buf, unsigned long size)
{
    if (!size)
        return;
    if (!err->file[0])
        snprintf(buf, size, "%s", err->text);
    else if (err->line > 0 && err->column > 0)
        snprintf(buf, size, "%s:%d:%d: %s", err->file, err->line, err->column,
                 err->text);
    else if (err->line > 0)
        snprintf(buf, size, "%s:%d: %s", err->file, err->line, err->text);
    else
        snprintf(buf, size, "%s: %s", err->file, err->text);
}

int cw_status_worst(int a, int b)
{
    return a >= b ? a : b;
}

cw_status cw_status_of_error(const cw_error *err)
{
    return err && err->kind == CW_ERR_ENV ? CW_STATUS_ENV : CW_STATUS_INPUT;
}
