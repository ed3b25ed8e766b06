/*
 * utf8.h - UTF-8 read one way (utf8.c): the one decoder, and the one list
 * of the characters that must never reach a terminal or a JSON string raw
 * (the C1 controls and the bidirectional controls: a terminal acts on the
 * first, and the second make a text read in another order than it is
 * stored), and the one way to write them escaped as \xNN. Who shows a
 * text decides how (escaped, as a JSON \uXXXX, dropped); the engine
 * writes to no terminal.
 */
#ifndef ATTN_UTF8_H
#define ATTN_UTF8_H

#include <stddef.h>

/* The length (1..4) of the well-formed UTF-8 sequence at p (at most n
 * bytes) and its code point in *cp; 0 when p does not start one (a stray
 * continuation byte, an overlong form, a surrogate, past U+10FFFF, cut
 * short by n), *cp then the byte p[0]. n is at least 1. */
size_t utf8_decode(const unsigned char *p, size_t n, unsigned *cp);

/* The name of cp when it is on the list of characters that must never
 * reach a terminal or a JSON string raw ("a C1 control character",
 * "right-to-left override", "right-to-left mark" ...), else NULL. */
const char *utf8_control_name(unsigned cp);

/* 1 when cp is on that list and a lesson may not hold it either: all but
 * the three marks (U+061C, U+200E, U+200F), which right-to-left prose
 * needs and which change no more than the order around them. */
int utf8_control_refused_in_text(unsigned cp);

/* 1 when the character at t (at most n bytes; its length into *len, 1 for
 * a byte that starts no character) must not be written raw where a
 * person reads: a C0 control (a tab included), DEL, invalid UTF-8, or a
 * character on the list. */
int utf8_unsafe(const unsigned char *t, size_t n, size_t *len);

/* Copy s into buf (size bytes, cut at a character, NUL-terminated) with
 * every byte of an unsafe character (utf8_unsafe) written as \xNN, and,
 * when doubled, a backslash as \\ (so an escaped name reads back
 * unambiguously). Returns buf. The one escaping of outside bytes: the
 * engine's own messages quote what a person typed through it, and
 * app/present/escape.h gives it to everything shown on a terminal. */
const char *utf8_escape(const char *s, char *buf, size_t size, int doubled);

#endif
