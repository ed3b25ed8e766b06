/*
 * hash.h - the one hash of attn (hash.c): 64-bit FNV-1a, for what must be
 * recognised again (a training text is the one a checkpoint was trained
 * on; a checkpoint is whole). Not a defence: anyone can make a file with
 * the hash they want, which is why a checkpoint's fields are also held to
 * what a run can have.
 */
#ifndef ATTN_HASH_H
#define ATTN_HASH_H

#include <stddef.h>
#include <stdint.h>

#define HASH_START 1469598103934665603ull

/* h continued over the n bytes at p (start with HASH_START). */
uint64_t hash_fnv1a(uint64_t h, const void *p, size_t n);

#endif
