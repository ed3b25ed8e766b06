/*
 * ramp.h - colour ramps for heatmaps, as pure functions (no curses), so
 * the tests can hold them to their promises: lightness that rises with the
 * value, fixed endpoints, a diverging ramp symmetric about zero, and
 * fallbacks for 8-colour terminals and for no colour at all.
 *
 * A value reaches a ramp as t: in [0, 1] for the sequential ramp (weights),
 * in [-1, 1] for the diverging ramp (signed values scaled by max |v|).
 * Out-of-range t is clamped; NaN counts as 0.
 */
#ifndef ATTN_RAMP_H
#define ATTN_RAMP_H

/* An sRGB colour, each channel in [0, 1]. */
typedef struct {
    float r, g, b;
} Rgb;

/* The sequential ramp: viridis (dark purple -> teal -> yellow). */
Rgb ramp_sequential(float t);

/* The diverging ramp: blue (t = -1) -> near white (0) -> red (t = +1),
 * built in CIELAB with the same lightness at t and -t. */
Rgb ramp_diverging(float t);

/* CIE L* (0 black .. 100 white) of an sRGB colour. */
float ramp_lightness(Rgb c);
/* The grey of c's lightness (what a grey printer makes of it). */
Rgb ramp_grey(Rgb c);

/* The xterm-256 index (16..255: the 6x6x6 cube and the grey steps)
 * nearest to c in CIELAB, and the colour of such an index. */
int ramp_xterm256(Rgb c);
Rgb ramp_xterm256_rgb(int index);

/* The xterm-256 colours of n evenly spaced levels of the sequential ramp,
 * chosen so their lightness never falls (out has n entries); and of the
 * diverging ramp's levels -half..half (out has 2*half+1, index half is
 * zero), never lighter away from zero. */
void ramp_xterm256_sequential(int *out, int n);
void ramp_xterm256_diverging(int *out, int half);

/* Quantise t into one of n levels 0..n-1 (sequential: t in [0, 1]). */
int ramp_level(float t, int n);
/* Quantise t in [-1, 1] into 2*half+1 levels -half..half, 0 for t near 0. */
int ramp_signed_level(float t, int half);

/* The 8-colour fallback: curses colour numbers (0 black, 1 red, 2 green,
 * 3 yellow, 4 blue, 5 magenta, 6 cyan, 7 white; -1 the terminal's default
 * background). The sequential ramp has RAMP8_SEQ_LEVELS steps, rising in
 * the lightness of the standard palette; the diverging one has
 * 2*RAMP8_DIV_HALF+1 steps (default background in the middle). */
#define RAMP8_SEQ_LEVELS 5
#define RAMP8_DIV_HALF 2
int ramp8_sequential(float t);
int ramp8_diverging(float t);
/* The standard (xterm) colour of curses colour number 0..7. */
Rgb ramp8_rgb(int color);

/* Shade glyphs for no colour: RAMP_SHADE_LEVELS steps from empty to full,
 * " ░▒▓█" with UTF-8, " .:#@" without. Returns a static string. */
#define RAMP_SHADE_LEVELS 5
const char *ramp_shade(float t, int utf8);
/* The same by magnitude of a signed t in [-1, 1]. */
const char *ramp_shade_signed(float t, int utf8);

/* 1 when text on background bg should be dark (black), 0 for light. */
int ramp_text_dark(Rgb bg);

#endif
