/*
 * tui_cost.h - the cost of attention on the screen (C; tui_cost.c): its
 * state and its screen object.
 */
#ifndef ATTN_TUI_COST_H
#define ATTN_TUI_COST_H

/* A new view (timing from the start), NULL on no memory; freed with
 * cost_free (NULL is fine). */
typedef struct CostView CostView;
CostView *cost_new(void);
void cost_free(CostView *c);

/* The screen object (self: a CostView of cost_new, the stack's). */
struct TuiScreen;
extern const struct TuiScreen tui_screen_cost;

#endif
