/*
 * ramp.c - heatmap colour ramps: viridis for weights, a CIELAB
 * blue-white-red for signed values, their xterm-256 approximations, the
 * 8-colour and shade-glyph fallbacks. Pure arithmetic: no curses here.
 */
#include "ramp.h"

#include <math.h>

/* viridis (matplotlib) sampled at 17 evenly spaced points. */
static const float viridis[17][3] = {
    { 0.267004f, 0.004874f, 0.329415f }, { 0.282327f, 0.094955f, 0.417331f },
    { 0.278826f, 0.175490f, 0.483397f }, { 0.258965f, 0.251537f, 0.524736f },
    { 0.229739f, 0.322361f, 0.545706f }, { 0.199430f, 0.387607f, 0.554642f },
    { 0.172719f, 0.448791f, 0.557885f }, { 0.149039f, 0.508051f, 0.557250f },
    { 0.127568f, 0.566949f, 0.550556f }, { 0.120638f, 0.625828f, 0.533488f },
    { 0.157851f, 0.683765f, 0.501686f }, { 0.246070f, 0.738910f, 0.452024f },
    { 0.369214f, 0.788888f, 0.382914f }, { 0.515992f, 0.831158f, 0.294279f },
    { 0.678489f, 0.863742f, 0.189503f }, { 0.845561f, 0.887322f, 0.099702f },
    { 0.993248f, 0.906157f, 0.143936f },
};

static float clampf(float x, float lo, float hi)
{
    if (isnan(x))
        return lo > 0 ? lo : (hi < 0 ? hi : 0);
    return x < lo ? lo : (x > hi ? hi : x);
}

Rgb ramp_sequential(float t)
{
    t = clampf(t, 0.0f, 1.0f);
    float pos = t * 16.0f;
    int i = (int)pos;
    if (i >= 16)
        i = 15;
    float f = pos - (float)i;
    Rgb c = {
        viridis[i][0] + f * (viridis[i + 1][0] - viridis[i][0]),
        viridis[i][1] + f * (viridis[i + 1][1] - viridis[i][1]),
        viridis[i][2] + f * (viridis[i + 1][2] - viridis[i][2]),
    };
    return c;
}

/* sRGB <-> CIELAB (D65). */
static double to_linear(double v)
{
    return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
}

static double to_srgb(double v)
{
    v = v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1.0 / 2.4) - 0.055;
    return v < 0 ? 0 : (v > 1 ? 1 : v);
}

static const double WX = 0.95047, WY = 1.0, WZ = 1.08883;

static double lab_f(double t)
{
    return t > 216.0 / 24389.0 ? cbrt(t) : (24389.0 / 27.0 * t + 16.0) / 116.0;
}

static double lab_finv(double t)
{
    return t * t * t > 216.0 / 24389.0 ? t * t * t : (116.0 * t - 16.0) * 27.0 / 24389.0;
}

static void rgb_to_lab(Rgb c, double lab[3])
{
    double r = to_linear(c.r), g = to_linear(c.g), b = to_linear(c.b);
    double x = 0.4124564 * r + 0.3575761 * g + 0.1804375 * b;
    double y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b;
    double z = 0.0193339 * r + 0.1191920 * g + 0.9503041 * b;
    double fx = lab_f(x / WX), fy = lab_f(y / WY), fz = lab_f(z / WZ);
    lab[0] = 116.0 * fy - 16.0;
    lab[1] = 500.0 * (fx - fy);
    lab[2] = 200.0 * (fy - fz);
}

static Rgb lab_to_rgb(double L, double a, double b)
{
    double fy = (L + 16.0) / 116.0, fx = fy + a / 500.0, fz = fy - b / 200.0;
    double x = WX * lab_finv(fx), y = WY * lab_finv(fy), z = WZ * lab_finv(fz);
    double r = 3.2404542 * x - 1.5371385 * y - 0.4985314 * z;
    double g = -0.9692660 * x + 1.8760108 * y + 0.0415560 * z;
    double bl = 0.0556434 * x - 0.2040259 * y + 1.0572252 * z;
    Rgb c = { (float)to_srgb(r), (float)to_srgb(g), (float)to_srgb(bl) };
    return c;
}

float ramp_lightness(Rgb c)
{
    double lab[3];
    rgb_to_lab(c, lab);
    return (float)lab[0];
}

Rgb ramp_grey(Rgb c)
{
    /* a = b = 0: every channel's linear value is Y itself */
    float v = (float)to_srgb(lab_finv((ramp_lightness(c) + 16.0) / 116.0));
    Rgb g = { v, v, v };
    return g;
}

/* Endpoints chosen inside the sRGB gamut so clipping never bends the
 * lightness: L* 45 at both ends, 96 at zero. */
#define DIV_L_END 45.0
#define DIV_L_MID 96.0

Rgb ramp_diverging(float t)
{
    t = clampf(t, -1.0f, 1.0f);
    double m = fabs(t);
    double L = DIV_L_MID - (DIV_L_MID - DIV_L_END) * m;
    double a, b;
    if (t >= 0) {           /* red: a warm hue */
        a = 58.0 * m;
        b = 36.0 * m;
    } else {                /* blue */
        a = 8.0 * m;
        b = -46.0 * m;
    }
    return lab_to_rgb(L, a, b);
}

Rgb ramp_xterm256_rgb(int index)
{
    Rgb c = { 0, 0, 0 };
    if (index >= 232 && index <= 255) {
        float v = (float)(8 + 10 * (index - 232)) / 255.0f;
        c.r = c.g = c.b = v;
    } else if (index >= 16 && index < 232) {
        static const int level[6] = { 0, 95, 135, 175, 215, 255 };
        int i = index - 16;
        c.r = (float)level[i / 36] / 255.0f;
        c.g = (float)level[(i / 6) % 6] / 255.0f;
        c.b = (float)level[i % 6] / 255.0f;
    } else if (index >= 0 && index < 8) {
        c = ramp8_rgb(index);
    }
    return c;
}

/* The nearest xterm-256 colour to c whose L* lies in [lo, hi]. */
static int nearest_xterm(Rgb c, double lo, double hi)
{
    double want[3];
    rgb_to_lab(c, want);
    int best = -1;
    double best_d = INFINITY;
    for (int i = 16; i < 256; i++) {
        double lab[3];
        rgb_to_lab(ramp_xterm256_rgb(i), lab);
        if (lab[0] < lo - 1e-9 || lab[0] > hi + 1e-9)
            continue;
        /* weigh lightness four times: a ramp must keep its order of light */
        double d = 4.0 * (lab[0] - want[0]) * (lab[0] - want[0])
                 + (lab[1] - want[1]) * (lab[1] - want[1])
                 + (lab[2] - want[2]) * (lab[2] - want[2]);
        if (d < best_d) {
            best_d = d;
            best = i;
        }
    }
    return best;
}

int ramp_xterm256(Rgb c)
{
    return nearest_xterm(c, -1.0, 101.0);
}

void ramp_xterm256_sequential(int *out, int n)
{
    double floor_l = -1.0;
    for (int k = 0; k < n; k++) {
        float t = n > 1 ? (float)k / (float)(n - 1) : 0.0f;
        int idx = nearest_xterm(ramp_sequential(t), floor_l, 101.0);
        if (idx < 0)
            idx = k > 0 ? out[k - 1] : 16;
        out[k] = idx;
        floor_l = ramp_lightness(ramp_xterm256_rgb(idx));
    }
}

void ramp_xterm256_diverging(int *out, int half)
{
    int mid = ramp_xterm256(ramp_diverging(0.0f));
    out[half] = mid;
    for (int side = -1; side <= 1; side += 2) {
        double ceil_l = ramp_lightness(ramp_xterm256_rgb(mid));
        for (int k = 1; k <= half; k++) {
            float t = (float)(side * k) / (float)half;
            int idx = nearest_xterm(ramp_diverging(t), -1.0, ceil_l);
            if (idx < 0)
                idx = out[half + side * (k - 1)];
            out[half + side * k] = idx;
            ceil_l = ramp_lightness(ramp_xterm256_rgb(idx));
        }
    }
}

int ramp_level(float t, int n)
{
    if (n <= 1)
        return 0;
    t = clampf(t, 0.0f, 1.0f);
    int k = (int)(t * (float)n);
    return k >= n ? n - 1 : k;
}

int ramp_signed_level(float t, int half)
{
    if (half <= 0)
        return 0;
    t = clampf(t, -1.0f, 1.0f);
    /* half+1 bands by magnitude, the first (near zero) half as wide */
    float m = fabsf(t) * ((float)half + 0.5f) + 0.5f;
    int k = (int)m;
    if (k > half)
        k = half;
    return t < 0 ? -k : k;
}

/* xterm's standard colours 0..7. */
Rgb ramp8_rgb(int color)
{
    static const float std8[8][3] = {
        { 0, 0, 0 }, { 205, 0, 0 }, { 0, 205, 0 }, { 205, 205, 0 },
        { 0, 0, 238 }, { 205, 0, 205 }, { 0, 205, 205 }, { 229, 229, 229 },
    };
    if (color < 0 || color > 7)
        color = 0;
    Rgb c = { std8[color][0] / 255.0f, std8[color][1] / 255.0f, std8[color][2] / 255.0f };
    return c;
}

int ramp8_sequential(float t)
{
    /* blue, magenta, green, yellow, white: L* 33, 55, 72, 80, 91 */
    static const int seq[RAMP8_SEQ_LEVELS] = { 4, 5, 2, 3, 7 };
    return seq[ramp_level(t, RAMP8_SEQ_LEVELS)];
}

int ramp8_diverging(float t)
{
    /* strong blue, weak cyan, default, weak yellow, strong red */
    static const int div[2 * RAMP8_DIV_HALF + 1] = { 4, 6, -1, 3, 1 };
    return div[ramp_signed_level(t, RAMP8_DIV_HALF) + RAMP8_DIV_HALF];
}

const char *ramp_shade(float t, int utf8)
{
    static const char *const u[RAMP_SHADE_LEVELS] = { " ", "░", "▒", "▓", "█" };
    static const char *const a[RAMP_SHADE_LEVELS] = { " ", ".", ":", "#", "@" };
    int k = ramp_level(t, RAMP_SHADE_LEVELS);
    return utf8 ? u[k] : a[k];
}

const char *ramp_shade_signed(float t, int utf8)
{
    return ramp_shade(fabsf(clampf(t, -1.0f, 1.0f)), utf8);
}

int ramp_text_dark(Rgb bg)
{
    return ramp_lightness(bg) > 55.0f;
}
