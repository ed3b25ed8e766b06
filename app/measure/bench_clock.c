/*
 * bench_clock.c - the clock attn bench reads (measure.h): now, on the wall
 * and in CPU time, the median of a run's timings, and the phases of a
 * timed pass, for `attn bench --phases` (the fused layer: bench_case.c) and
 * `attn bench --model --phases` (a model's forward: bench_model_forward,
 * here): a clock the engine's marks drive (each phase's time in one pass,
 * its marks summed: a model's layers' norms are one phase), and each
 * phase's line of the table and item of the JSON, with its share of the
 * pass and of the same run's FMA peak. The engine keeps no clock; the one
 * it is read with is here.
 */
#include "measure.h"
#include "clock.h"

#include <stdlib.h>
#include <time.h>

#include "json_write.h"
#include "model.h"

double bench_now_ms(void) { return clock_seconds() * 1e3; }

double bench_cpu_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, by_value);
    return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

_Static_assert(ATTN_PHASES <= BENCH_PHASES_MAX && MODEL_PHASES <= BENCH_PHASES_MAX, "a pass's phases fit the clock");

void phase_clock_reset(PhaseClock *pc)
{
    for (int p = 0; p < BENCH_PHASES_MAX; p++)
        pc->ms[p] = -1.0;
}

void phase_clock_mark(PhaseClock *pc, int phase, int done)
{
    if (phase < 0 || phase >= BENCH_PHASES_MAX)
        return;
    if (!done)
        pc->t0 = bench_now_ms();
    else
        pc->ms[phase] = (pc->ms[phase] < 0 ? 0 : pc->ms[phase]) + bench_now_ms() - pc->t0;
}

static double rate(double flops, double ms) { return ms > 0 ? flops / (ms * 1e6) : 0.0; }

void bench_phases_print(FILE *f, const PhaseLine *ph, int n, double pass_ms, double peak_gflops)
{
    fprintf(f, "  phases, each timed inside every pass, the median of the passes:\n");
    for (int p = 0; p < n; p++) {
        if (ph[p].ms < 0)
            continue;
        fprintf(f, "    %-18s %9.2f ms %4.0f%% of the pass", ph[p].name, ph[p].ms,
                pass_ms > 0 ? 100.0 * ph[p].ms / pass_ms : 0.0);
        if (ph[p].flops > 0)
            fprintf(f, " %9.1f GFLOP/s %4.0f%% of the FMA peak", rate(ph[p].flops, ph[p].ms),
                    peak_gflops > 0 ? 100.0 * rate(ph[p].flops, ph[p].ms) / peak_gflops : 0.0);
        fputc('\n', f);
    }
}

void bench_phases_json(JsonWriter *w, const PhaseLine *ph, int n, double peak_gflops)
{
    jw_array(w, "phases");
    for (int p = 0; p < n; p++) {
        if (ph[p].ms < 0)
            continue;
        jw_object(w, NULL);
        jw_str(w, "phase", ph[p].name);
        jw_num(w, "ms", ph[p].ms, 4);
        jw_num(w, "gflops", rate(ph[p].flops, ph[p].ms), 2);
        jw_num(w, "peak_share", peak_gflops > 0 ? rate(ph[p].flops, ph[p].ms) / peak_gflops : 0.0, 4);
        jw_close(w, '}');
    }
    jw_close(w, ']');
}

static void model_tick(void *ctx, ModelPhase phase, int done)
{
    phase_clock_mark(ctx, (int)phase, done);
}

attn_status bench_model_forward(const Model *m, const int *tokens, int n, int reps, double *ms, PhaseLine *phases,
                                AttnError *err)
{
    double *t = malloc((size_t)reps * MODEL_PHASES * sizeof *t);
    if (!t)
        return attn_fail(err, ATTN_E_NOMEM, "out of memory");
    PhaseClock pc;
    ModelWatch watch = { model_tick, &pc };
    attn_status rc = ATTN_OK;
    for (int r = -1; r < reps && rc == ATTN_OK; r++) {
        ModelRun run;
        phase_clock_reset(&pc);
        double t0 = bench_now_ms();
        if ((rc = model_forward_timed(m, tokens, n, &watch, &run, err)) != ATTN_OK)
            break;
        if (r >= 0) {       /* the first run only warms up */
            ms[r] = bench_now_ms() - t0;
            for (int p = 0; p < MODEL_PHASES; p++)
                t[(size_t)p * reps + r] = pc.ms[p];
        }
        model_run_free(&run);
    }
    for (int p = 0; rc == ATTN_OK && p < MODEL_PHASES; p++)
        phases[p] = (PhaseLine){ model_phase_name((ModelPhase)p), bench_median(t + (size_t)p * reps, reps),
                                 model_phase_flops(model_config(m), n, (ModelPhase)p) };
    free(t);
    return rc;
}
