/* keys.h - the TUI's keys: one list (keys.def) drives the handling
 * (state_key), the help view and the key bar.
 *
 * Contract: keys_table[] holds one entry per line of keys.def, in its
 * order.  state_key() (state.h) looks the key up for the current mode
 * (keys_mode) and runs the entry's handler; the views read the same
 * entries for the key bar (bar_key/bar_label of the entries whose views
 * hold the mode) and the help view (help_key/help_text).  Pure: no curses.
 */
#ifndef CW_TUI_KEYS_H
#define CW_TUI_KEYS_H

#include <stddef.h>

#include "state.h"

/* Where a key line applies: one bit per view, and the filter prompt. */
enum {
    VM_MAIN = 1u << VIEW_MAIN,
    VM_DETAIL = 1u << VIEW_DETAIL,
    VM_SOURCE = 1u << VIEW_SOURCE,
    VM_ROOF = 1u << VIEW_ROOFLINE,
    VM_DEVICE = 1u << VIEW_DEVICE,
    VM_HELP = 1u << VIEW_HELP,
    VM_FILTER = 1u << VIEW_COUNT, /* typing a filter */
    VM_VIEWS = VM_MAIN | VM_DETAIL | VM_SOURCE | VM_ROOF | VM_DEVICE,
};

#define KEYS_MAX_CODES 8

typedef int (*key_handler)(tui_state *st, int key);

typedef struct tui_keydef {
    key_handler handler;
    unsigned views;                  /* VM_* */
    const char *bar_key, *bar_label; /* "" = not on the key bar */
    const char *help_key, *help_text; /* "" = no help line */
    int codes[KEYS_MAX_CODES];       /* 0-terminated */
} tui_keydef;

extern const tui_keydef keys_table[];
extern const size_t keys_count;

/* The VM_* bit of the state's current mode (the filter prompt, else the
 * view). */
unsigned keys_mode(const tui_state *st);
/* The entry that handles key in the current mode, or NULL. */
const tui_keydef *keys_lookup(const tui_state *st, int key);

#endif
