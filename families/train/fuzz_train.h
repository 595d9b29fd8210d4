/* The fuzz steps of families/train: the extrapolation lab's trainer (c_src/exports_lab.txt).
 * One `static int32_t f_<name>(cursor *c, sizes z)` per entry point, its row in ENTRIES generated
 * from decl.js. tests/fuzz/fuzz_core.c includes this file (the list tools/gen_decls.js writes)
 * after its helpers: cursor, sizes, IN, OUT, NEED, ALLOC, the bias draw. */
/* ---- the extrapolation lab's trainer (c_src/exports_lab.txt) ----
 * A small configuration from the fuzz data: length z.a, max_length z.b (either may be invalid or
 * large), heads 1..2 of width 2..8, 1..2 layers, batch 1..2, and now and then one int or float
 * key replaced by a fuzz value (invalid ones included). The arena is exactly posenc_train_size
 * bytes (skipped above LAB_CAP), initialised before step / evaluate / attention. */
#define LAB_CAP (1 << 21)
typedef struct {
    int32_t ic[POSENC_TRAIN_NINT];
    float fc[POSENC_TRAIN_NFLOAT];
    void *arena;
    int32_t bytes;
    int uninit;
} lab;
static void lab_config(cursor *c, sizes z, lab *L) {
    int32_t *ic = L->ic;
    float *fc = L->fc;
    const int32_t heads = 1 + (u8(c) & 1), dh = 2 * (1 + u8(c) % 4);
    ic[POSENC_TRAIN_TASK] = u8(c) % 3;
    ic[POSENC_TRAIN_METHOD] = u8(c) % 6;
    ic[POSENC_TRAIN_LENGTH] = z.a;
    ic[POSENC_TRAIN_DIM] = heads * dh;
    ic[POSENC_TRAIN_HEADS] = heads;
    ic[POSENC_TRAIN_LAYERS] = 1 + (u8(c) & 1);
    ic[POSENC_TRAIN_HIDDEN] = 1 + u8(c) % 8;
    ic[POSENC_TRAIN_BATCH] = 1 + (u8(c) & 1);
    ic[POSENC_TRAIN_STEPS] = 1 + u8(c) % 20;
    ic[POSENC_TRAIN_SEED] = (int32_t)((uint32_t)u8(c) << 24 | u8(c));
    ic[POSENC_TRAIN_MAX_LENGTH] = u8(c) & 1 ? z.b : z.a;
    ic[POSENC_TRAIN_K] = 1 + u8(c) % 6;
    const float fdef[POSENC_TRAIN_NFLOAT] = {3e-3f, 0.01f, 1.0f, 0.9f, 0.99f, 1e-8f};
    memcpy(fc, fdef, sizeof fdef);
    /* one key now and then from the fuzz data */
    const uint8_t bi = u8(c), bf = u8(c);
    if (bi >= 200) ic[bi % POSENC_TRAIN_NINT] = bi & 1 ? size(c) : small(c);
    if (bf >= 200) fc[bf % POSENC_TRAIN_NFLOAT] = (float)real(c);
}
/* size, exact arena and init. Returns the status to report (0 with L->arena NULL: skipped). */
static int32_t lab_open(cursor *c, sizes z, lab *L) {
    lab_config(c, z, L);
    L->arena = NULL;
    L->uninit = 0;
    const int32_t bytes = posenc_train_size(L->ic, L->fc);
    if (bytes <= 0) return bytes ? bytes : -100;
    if (bytes > LAB_CAP) return 0;
    const uint8_t b = u8(c);
    L->bytes = b == 9 ? bytes - 1 : bytes; /* a short arena must be refused */
    L->arena = keep(malloc((size_t)L->bytes));
    if (b == 8) { /* never initialised: every call must refuse it */
        memset(L->arena, 0, (size_t)L->bytes);
        L->uninit = 1;
        return POSENC_OK;
    }
    const int32_t st = posenc_train_init(L->arena, L->bytes, L->ic, L->fc);
    if (b == 9) {
        L->arena = NULL;
        return st == POSENC_E_SCRATCH ? POSENC_OK : -100;
    }
    if (st != POSENC_OK) L->arena = NULL;
    return st;
}
/* a call on a never-initialised arena must not succeed */
static int32_t lab_result(const lab *L, int32_t st) {
    return L->uninit && st == POSENC_OK ? -100 : st;
}
static int32_t f_train_size(cursor *c, sizes z) {
    lab L;
    lab_config(c, z, &L);
    const uint8_t b = u8(c);
    const int32_t n = posenc_train_size(b == 1 ? NULL : L.ic, b == 2 ? NULL : L.fc);
    return n > 0 ? POSENC_OK : n == 0 ? -100 : n;
}
static int32_t f_train_init(cursor *c, sizes z) {
    lab L;
    const int32_t st = lab_open(c, z, &L);
    if (st || !L.arena || L.uninit) return st;
    return posenc_train_param_count(L.arena) > 0 ? POSENC_OK : -100;
}
static int32_t f_train_param_count(cursor *c, sizes z) {
    lab L;
    int32_t st = lab_open(c, z, &L);
    if (st || !L.arena) return st;
    const int32_t n = posenc_train_param_count(u8(c) == 3 ? NULL : L.arena);
    return lab_result(&L, n > 0 ? POSENC_OK : n == 0 ? -100 : n);
}
static int32_t f_train_params(cursor *c, sizes z) {
    lab L;
    int32_t st = lab_open(c, z, &L);
    if (st || !L.arena) return st;
    int32_t n = L.uninit ? 4 : posenc_train_param_count(L.arena);
    const uint8_t b = u8(c);
    if (b == 5)
        n--;
    else if (b == 6)
        n++; /* a wrong count must be refused */
    NEED(n);
    const int32_t store = u8(c) & 1;
    float *v = store ? IN(n) : OUT(n);
    return lab_result(&L, posenc_train_params(L.arena, b == 7 ? NULL : v, n, store));
}
static int32_t f_train_step(cursor *c, sizes z) {
    lab L;
    int32_t st = lab_open(c, z, &L);
    if (st || !L.arena) return st;
    const uint8_t b = u8(c);
    const int32_t steps = b >= 250 ? (int32_t)(b % 3) - 1 : 1 + b % 3;
    return lab_result(&L, posenc_train_step(L.arena, steps, u8(c) == 7 ? NULL : OUT(steps)));
}
/* an evaluation length around the trained ones: length, max_length, one past either, short */
static int32_t lab_length(cursor *c, const lab *L) {
    const int32_t n = L->ic[POSENC_TRAIN_LENGTH], m = L->ic[POSENC_TRAIN_MAX_LENGTH];
    const int32_t t = n > m ? n : m;
    switch (u8(c) % 8) {
        case 0:
            return n;
        case 1:
            return t;
        case 2:
            return t + 1;
        case 3:
            return n + 1;
        case 4:
            return n - 1;
        case 5:
            return 2 + u8(c) % (t > 2 ? t - 1 : 1);
        case 6:
            return small(c);
        default:
            return size(c);
    }
}
/* inv_freq: NULL, or dim/heads/2 finite or not, small or huge (any finite value >= 0 is in
 * the contract) */
static double *lab_inv(cursor *c, const lab *L) {
    if (u8(c) & 1) return NULL;
    const int32_t np = L->ic[POSENC_TRAIN_DIM] / L->ic[POSENC_TRAIN_HEADS] / 2;
    double *inv = ALLOC(double, np);
    static const double wide[] = {1e30, 1e300, 1.7976931348623157e308, 4.9e-324};
    for (int32_t i = 0; i < np; i++) {
        const uint8_t b = u8(c);
        inv[i] = b >= 240 ? wide[b % 4] : b >= 160 ? real(c) : (double)(b % 64) / 16.0;
    }
    return inv;
}
/* 0..2 training steps first (1 + b % 3 - 1) */
static int32_t lab_train(cursor *c, const lab *L) {
    const int32_t steps = u8(c) % 3;
    if (!steps || L->uninit) return POSENC_OK;
    float losses[2];
    const int32_t st = posenc_train_step(L->arena, steps, losses);
    return st == POSENC_E_PARAM ? POSENC_OK : st; /* a diverging configuration: still evaluate */
}
static int32_t f_train_evaluate(cursor *c, sizes z) {
    lab L;
    int32_t st = lab_open(c, z, &L);
    if (st || !L.arena) return st;
    if ((st = lab_train(c, &L))) return st;
    const int32_t length = lab_length(c, &L), n = u8(c) == 4 ? small(c) : 1 + u8(c) % 3;
    const int32_t seed = (int32_t)u8(c);
    double *inv = lab_inv(c, &L);
    const double scale = inv ? real(c) : 1.0;
    double *res = u8(c) == 7 ? NULL : ALLOC(double, POSENC_TRAIN_NRESULT);
    return lab_result(&L, posenc_train_evaluate(L.arena, length, n, seed, inv, scale, res));
}
static int32_t f_train_sequences(cursor *c, sizes z) {
    lab L;
    int32_t st = lab_open(c, z, &L);
    if (st || !L.arena) return st;
    const int32_t length = lab_length(c, &L), n = u8(c) == 4 ? small(c) : 1 + u8(c) % 3;
    const int32_t seed = (int32_t)u8(c);
    NEED(prod(n, length));
    int32_t *tok = ALLOC(int32_t, prod(n, length)), *tgt = ALLOC(int32_t, prod(n, length));
    const uint8_t b = u8(c);
    return lab_result(&L, posenc_train_sequences(L.arena, length, n, seed, b == 7 ? NULL : tok,
                                                 b == 8 ? NULL : tgt));
}
static int32_t f_train_attention(cursor *c, sizes z) {
    lab L;
    int32_t st = lab_open(c, z, &L);
    if (st || !L.arena) return st;
    if ((st = lab_train(c, &L))) return st;
    const uint8_t lb = u8(c);
    const int32_t length = lab_length(c, &L),
                  layer = lb < 224 ? lb % L.ic[POSENC_TRAIN_LAYERS] : (int32_t)(lb % 4) - 1;
    const int32_t seed = (int32_t)u8(c);
    double *inv = lab_inv(c, &L);
    const double scale = inv ? real(c) : 1.0;
    NEED(prod3(L.ic[POSENC_TRAIN_HEADS], length, length));
    float *w = OUT(prod3(L.ic[POSENC_TRAIN_HEADS], length, length));
    int32_t *tok = ALLOC(int32_t, length);
    const uint8_t b = u8(c);
    return lab_result(&L, posenc_train_attention(L.arena, length, layer, seed, inv, scale,
                                                 b == 7 ? NULL : w, b == 8 ? NULL : tok));
}
