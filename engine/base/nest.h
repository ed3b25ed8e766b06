/*
 * nest.h - the one depth limit of every recursive reader: a lesson's
 * expressions, a student's typed answer, JSON. Each counts its nesting
 * (parentheses, signs, function calls, containers) against ATTN_NEST_MAX
 * and refuses what goes deeper, so nothing a file, a sheet or a peer sends
 * can exhaust the stack (a 50,000-deep exp(exp(...)) was a crash).
 */
#ifndef ATTN_NEST_H
#define ATTN_NEST_H

#define ATTN_NEST_MAX 200
#define NEST_MAX_TEXT "200"   /* the same, for messages built at compile time */

#endif
