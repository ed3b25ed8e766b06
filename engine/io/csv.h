/*
 * csv.h - a reader of matrices written as CSV, from bytes in memory (the
 * engine never opens files; the app hands them over).
 *
 * Numbers are separated by commas, one row of the matrix per line; blanks
 * around a field are ignored, so are empty lines, a UTF-8 byte-order mark
 * and the CR of CRLF line ends. A field may be quoted ("a, b"; "" is a
 * quote inside). Two kinds of labels are recognised:
 *   - a header: the first line is one when none of its fields is a
 *     number; its fields become the column labels;
 *   - row labels: when the first field of the first line of numbers is not
 *     a number, the first column of every line is a label (and the header's
 *     first field, if any, is the corner above them, ignored).
 *   - a field that is meant as a number but is not one this reader takes
 *     (nan, 0x10, 12abc) makes neither: it is refused where it stands, so
 *     a matrix never loses a column silently.
 * Numbers are decimal (the words inf and -inf allowed, NaN not), and a
 * decimal must fit a float32 (num_fits_float: 1e39 and 1e400 are refused).
 * Refusals name the line and field as an editor shows them ("row 3,
 * column 2 ('x') is not a number"), or what is wrong with the shape.
 */
#ifndef ATTN_CSV_H
#define ATTN_CSV_H

#include <stddef.h>

#include "mat.h"

/* A label the caller accepts (1) or refuses (0): for the caller's rules
 * about characters that may reach a screen. */
typedef int (*CsvLabelCheck)(const char *label);

/* Parse bytes[0..len) into a new matrix (OP_INPUT, no name, labels when
 * the file has them) in *out, which the caller frees with mat_free. At
 * most max_elems numbers; label_ok may be NULL (any label). ATTN_OK, or a
 * code and err->msg, *out NULL. */
attn_status csv_read(Mat **out, const char *bytes, size_t len, long max_elems, CsvLabelCheck label_ok,
                     AttnError *err);

#endif
