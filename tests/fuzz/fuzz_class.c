/*
 * fuzz_class.c - libFuzzer target for what a class server reads from a
 * peer it does not trust (app/class/class_wire.c): the bytes cut into lines
 * in pieces of every size, each line parsed as a message as the server
 * parses one (HELLO's three fields, then two), its number fields read, and
 * its name cleaned. Nothing may read out of bounds, and a line held is
 * never longer than the protocol allows.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "class_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ClassReader r = { 0 };
    char line[CLASS_LINE_MAX];
    size_t off = 0, piece = size ? (size_t)data[0] % 61 + 1 : 1;
    while (off < size) {
        size_t n = size - off < piece ? size - off : piece;
        size_t took = class_reader_feed(&r, (const char *)data + off, n);
        off += took;
        int got;
        while ((got = class_reader_line(&r, line)) == 1) {
            if (strlen(line) >= CLASS_LINE_MAX)
                __builtin_trap();
            ClassMsg m;
            char copy[CLASS_LINE_MAX], name[4 * CLASS_NAME_MAX + 1], why[200];
            memcpy(copy, line, strlen(line) + 1);
            if (class_msg_parse(copy, copy[0] == 'H' ? 3 : 2, &m) == 0) {
                long v;
                for (int i = 0; i < m.n; i++)
                    class_field_int(m.field[i], 0, 1000000, &v);
                if (m.n >= 3)
                    class_name_clean(m.field[2], name, sizeof name, why, sizeof why);
            }
            ClassAddr a;
            class_addr_parse(line, &a, why, sizeof why);
        }
        if (got < 0)
            return 0;       /* the server drops such a peer */
        if (took == 0)
            return 0;
    }
    return 0;
}
