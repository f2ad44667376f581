#ifndef CONCORD_CNCURSES_SHIM_H
#define CONCORD_CNCURSES_SHIM_H
// The wide-character curses (ncursesw): get_wch, add_wchstr and wcwidth need these before the
// header.
#define NCURSES_WIDECHAR 1
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <locale.h>
#include <wchar.h>
#include <ncursesw/curses.h>

// Curses names that are C macros, which Swift does not import: as functions and constants.
static inline attr_t concord_attr_bold(void) { return A_BOLD; }
static inline attr_t concord_attr_dim(void) { return A_DIM; }
static inline attr_t concord_attr_reverse(void) { return A_REVERSE; }
static inline attr_t concord_attr_underline(void) { return A_UNDERLINE; }
static inline attr_t concord_attr_normal(void) { return A_NORMAL; }
static inline attr_t concord_color_pair(short pair) { return COLOR_PAIR(pair); }
static inline int concord_lines(void) { return LINES; }
static inline int concord_columns(void) { return COLS; }
static inline int concord_key_code_yes(void) { return KEY_CODE_YES; }
static inline mmask_t concord_wheel_up(void) { return BUTTON4_PRESSED; }
#ifdef BUTTON5_PRESSED
static inline mmask_t concord_wheel_down(void) { return BUTTON5_PRESSED; }
#else
static inline mmask_t concord_wheel_down(void) { return 0; }
#endif
// The process's own terminal (standard input and output), for Swift, which cannot name stdin,
// stdout or stdscr safely.
static inline SCREEN *concord_new_terminal(void) { return newterm(NULL, stdout, stdin); }
static inline void concord_keys_without_waiting(void) { keypad(stdscr, TRUE); nodelay(stdscr, TRUE); }
static inline void concord_attrset(attr_t attributes) { attrset(attributes); }
#endif
