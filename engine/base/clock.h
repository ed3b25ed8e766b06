/*
 * clock.h - the one clock of attn (clock.c): seconds on the monotonic
 * clock, for every rate, timeout and time left (the class's waits, the
 * training's tokens a second, the benchmarks, the screen's ticks). Never
 * the time of day: a clock that jumps would make a rate or a wait a lie.
 */
#ifndef ATTN_CLOCK_H
#define ATTN_CLOCK_H

/* Seconds since an arbitrary start, never going back. */
double clock_seconds(void);

#endif
