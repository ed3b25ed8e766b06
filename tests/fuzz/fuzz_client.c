/*
 * fuzz_client.c - libFuzzer target for what a student's attn reads from a
 * class server it does not trust (app/class/class_client.c): the bytes
 * arrive on a socket as a server would send them (WELCOME, SECRET, FILE
 * with its bytes, STEP, EXERCISE, READY, ...), read and taken message by
 * message until the client says the connection is lost. Nothing may read
 * out of bounds, and what it keeps stays within the protocol's limits
 * (files in count and bytes). The state directory is a temporary one: a
 * SECRET is kept there as a real student's would be.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "class_client.h"
#include "class_pack.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int once;
    if (!once) {
        char dir[] = "/tmp/attn-fuzz-client-XXXXXX";
        if (mkdtemp(dir))
            setenv("ATTN_STATE_DIR", dir, 1);
        once = 1;
    }
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
        return 0;
    ClassClient *c = class_client_over(sv[0], "127.0.0.1:7411", "Ada");
    if (!c) {
        close(sv[0]);
        close(sv[1]);
        return 0;
    }
    size_t off = 0;
    int lost = 0;
    for (int rounds = 0; rounds < 100000 && !lost; rounds++) {
        /* the server's bytes in pieces, as a socket hands them over */
        if (off < size) {
            size_t piece = size - off < 4096 ? size - off : 4096;
            ssize_t n = write(sv[1], data + off, piece);
            if (n > 0)
                off += (size_t)n;
        } else if (sv[1] >= 0) {
            close(sv[1]);       /* all sent: the server hangs up */
            sv[1] = -1;
        }
        class_client_read(c);
        ClientMsg m;
        for (int k = 0; k < 1000; k++) {
            class_client_next(c, &m);
            if (m.what == CLIENT_NOTHING)
                break;
            if (m.what == CLIENT_LOST || m.what == CLIENT_REFUSED || m.what == CLIENT_ENDED) {
                lost = 1;
                break;
            }
            if (strlen(m.text) >= sizeof m.text)
                __builtin_trap();
        }
        if (m.what == CLIENT_NOTHING && sv[1] < 0 && off >= size)
            break;
    }
    ClassPack *p = class_client_take_pack(c);
    if (p) {
        if (p->n_files > CLASS_FILES_MAX)
            __builtin_trap();
        class_pack_free(p);
        free(p);
    }
    class_client_free(c);
    if (sv[1] >= 0)
        close(sv[1]);
    return 0;
}
