/*
 * lite_malloc.c -- posenc/lite's lean core only (build.sh links it into
 * dist/posenc-lite.simd.wasm, with -sMALLOC=none, and nothing else): the allocator behind the
 * JS side's buffers.
 *
 * Why: no C function the lean core exports allocates; only js/core.js does (the arrays it
 * passes in and reads back, a few at a time, freed when the call returns or by
 * PosencBuffer.free). emmalloc's bins were 1.3 kB of the lean core's download; this is a first
 * fit over the blocks in address order, merging free neighbours as it walks, growing the heap
 * from the linker's __heap_base with memory.grow (-sMALLOC=none links no sbrk). mallinfo()
 * reports the bytes of the blocks in use (headers included), which is what posenc_heap_in_use
 * reads: it goes back to where it was when every buffer is freed.
 */
/* Only in the lean core's build (build.sh defines this): the native tests link every c_src
 * file with the system's libc. */
#ifdef POSENC_LITE_CORE
#include <malloc.h>
#include <stddef.h>
#include <stdint.h>

extern unsigned char __heap_base; /* the linker's: the first byte above data and stack */

/* A block: its header (16 bytes, so every payload is 16-aligned) then its payload. */
typedef struct {
    size_t size; /* of the whole block, header included; a multiple of 16 */
    size_t used;
    size_t pad[2];
} block;

#define HDR       sizeof(block)
#define MIN_SPLIT (2 * HDR) /* a remainder smaller than this stays in the block */

static unsigned char *heap_lo, *heap_hi; /* the blocks tile [heap_lo, heap_hi) */
static size_t in_use;

static block *at(unsigned char *p) { return (block *)(void *)p; }

static void *take(block *b, size_t need) {
    if (b->size - need >= MIN_SPLIT) {
        block *rest = at((unsigned char *)b + need);
        rest->size = b->size - need;
        rest->used = 0;
        b->size = need;
    }
    b->used = 1;
    in_use += b->size;
    return (unsigned char *)b + HDR;
}

/* Move the heap's end up by grow bytes (a multiple of 16): the old end, or NULL when the memory
 * cannot grow (MAXIMUM_MEMORY). */
static unsigned char *extend(size_t grow) {
    if (!heap_lo)
        heap_lo = heap_hi = (unsigned char *)(((uintptr_t)&__heap_base + 15) & ~(uintptr_t)15);
    const uintptr_t end = (uintptr_t)heap_hi, have = __builtin_wasm_memory_size(0) * 65536;
    if (grow > UINTPTR_MAX - end) return NULL;
    if (end + grow > have) {
        const uintptr_t pages = (end + grow - have + 65535) / 65536;
        if (__builtin_wasm_memory_grow(0, pages) == (size_t)-1) return NULL;
    }
    heap_hi += grow;
    return (unsigned char *)end;
}

void *malloc(size_t n) {
    if (n > SIZE_MAX / 2) return NULL;
    const size_t need = ((n + 15) & ~(size_t)15) + HDR;
    block *last = NULL;
    for (unsigned char *p = heap_lo; p < heap_hi; p += last->size) {
        last = at(p);
        if (last->used) continue;
        for (unsigned char *q = p + last->size; q < heap_hi && !at(q)->used; q = p + last->size)
            last->size += at(q)->size;
        if (last->size >= need) return take(last, need);
    }
    if (last && !last->used) { /* the free block at the end grows into what is missing */
        if (!extend(need - last->size)) return NULL;
        last->size = need;
        return take(last, need);
    }
    unsigned char *p = extend(need);
    if (!p) return NULL;
    at(p)->size = need;
    return take(at(p), need);
}

void free(void *ptr) {
    if (!ptr) return;
    block *b = at((unsigned char *)ptr - HDR);
    in_use -= b->size;
    b->used = 0;
}

typedef struct mallinfo mallinfo_t; /* a definition starts with its type's name */

mallinfo_t mallinfo(void) {
    struct mallinfo mi = {0};
    mi.uordblks = (int)in_use;
    return mi;
}

#endif /* POSENC_LITE_CORE */
