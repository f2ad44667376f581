#ifndef CONCORD_CELL_WIDTH_H
#define CONCORD_CELL_WIDTH_H
#include <stdint.h>

/// The terminal cells of one Unicode scalar by the C library's wcwidth in a UTF-8 locale,
/// whatever the process's own locale: 0, 1, 2, or -1 for a control or an unassigned scalar.
int concord_cell_width(uint32_t scalar);

#endif
