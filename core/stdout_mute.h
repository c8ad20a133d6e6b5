/* stdout_mute.h - stdout pointed at /dev/null around a library call that
 * prints on it (glslang prints the ~4,500 lines of built-ins it could not
 * parse with printf), so that nothing but the report reaches stdout
 * (`--format json -o -` stays one JSON document).
 *
 * Contract: cw_stdout_mute() flushes stdout and points descriptor 1 at
 * /dev/null, returning the saved descriptor; -1 when it did nothing (stdout
 * is a terminal: the TUI draws there from another thread, and pointing it
 * away would blank the screen; or a descriptor could not be had).
 * cw_stdout_unmute(saved) flushes what was printed meanwhile (to
 * /dev/null) and puts stdout back.  One muted region at a time: callers
 * that may run on several threads hold a lock around the pair. */
#ifndef CW_STDOUT_MUTE_H
#define CW_STDOUT_MUTE_H

int cw_stdout_mute(void);
void cw_stdout_unmute(int saved);

#endif
