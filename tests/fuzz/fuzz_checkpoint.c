/*
 * fuzz_checkpoint.c - libFuzzer target for attn train's checkpoint reader
 * (train_checkpoint_parse in app/models/train_state.c): any bytes end in a
 * run that could be (every setting in the command line's ranges, its step,
 * generator and curve sound, every weight finite) or a refusal that says
 * why, never a crash, a leak or undefined behaviour (ASan + UBSan). Its
 * checksum is anyone's to make right, so the target makes it right for
 * every input: the fuzzer reaches the fields behind it. Settings of models
 * larger than a few thousand weights are left aside (their memory is the
 * command line's to allow, not the parser's to find). Built and run by
 * `make fuzz`; seeds in tests/fuzz/checkpoint (a run of attn train).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "model_train.h"
#include "train_state.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 12 + sizeof(TrainSettings) + 8 || size > (1 << 20))
        return 0;
    unsigned char *b = malloc(size);
    if (!b)
        return 0;
    memcpy(b, data, size);
    TrainSettings s;
    memcpy(&s, b + 12, sizeof s);
    if (s.shape.layers > 4 || s.shape.d > 64 || s.shape.context > 64 || s.batch > 8) {
        free(b);
        return 0;
    }
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i + 8 < size; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    memcpy(b + size - 8, &h, 8);
    TrainRun r;
    Model *m = NULL;
    ModelTrain *t = NULL;
    char why[400];
    if (train_checkpoint_parse(b, size, &r, &m, &t, why, sizeof why) == 0) {
        if (!m || !t || r.step < 0 || r.step > r.set.steps || r.set.eval_every < 1 || r.set.shape.vocab != 256)
            abort();
        model_train_free(t);
        model_free(m);
        train_run_free(&r);
    } else if (!why[0] || m || t) {
        abort();
    }
    free(b);
    return 0;
}
