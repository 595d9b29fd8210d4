#!/usr/bin/env bash
# build.sh -- builds posenc, installing the toolchain when it is missing.
#
#   ./build.sh            toolchain + npm deps + wasm (the seven artifacts below) + native tests + page
#   ./build.sh serve      toolchain + wasm + page, then serve the built page at http://127.0.0.1:5173
#   ./build.sh test       the above + Chromium, then every test (node --test: tests/ and families/)
#   ./build.sh bench      the above, then the benchmark table
#   ./build.sh element    toolchain + wasm + the <posenc-view> package: build/posenc-view/ and its
#                         npm tarball build/posenc-view-VERSION.tgz (what `npm install` takes)
#   ./build.sh wasm       only the seven wasm artifacts (assumes the toolchain)
#   ./build.sh native     only the native tests and fuzz targets (tests/native.test.js runs them)
#   ./build.sh native F   only family F's native tests (families/F/test_*.c) and the fuzz targets:
#                         the others keep their last build (`./build.sh native` rebuilds them)
#   ./build.sh lint       Biome (JS/TS: lint + format check, biome.json) and clang-format (C, .clang-format)
#   ./build.sh format     rewrite every JS/TS and C file in the formatters' style
#
# A second run with nothing changed only checks stamps (a few seconds).
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$PWD
export NODE_PATH=/usr/share/nodejs   # Debian's emcc needs acorn from here under NodeSource's node

log() { printf '[build] %s\n' "$*" >&2; }

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else "$@"; fi; }

apt_ensure() { # apt_ensure CMD PKG...: install PKGs when CMD is not on PATH
    local cmd=$1; shift
    command -v "$cmd" >/dev/null 2>&1 && return 0
    log "installing $* (Debian packages)"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null || true
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" >/dev/null
}

ensure_toolchain() {
    apt_ensure emcc emscripten
    apt_ensure clang clang
    apt_ensure clang-format clang-format
    # clang's sanitizer runtimes live in a separate package on Debian
    if ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.asan*.a >/dev/null 2>&1; then
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q libclang-rt-14-dev >/dev/null 2>&1 || true
    fi
}

ensure_npm() {
    # A node_modules that is a symlink is another checkout's (a git worktree sharing it): npm ci
    # would empty that checkout's folder through the link, so it is left alone.
    if [ -L node_modules ]; then
        [ -d node_modules/.bin ] || log "node_modules is a symlink to an empty folder: install it there"
        return 0
    fi
    if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
        log "npm ci"
        npm ci --no-audit --no-fund >&2
    fi
}

ensure_chromium() { apt_ensure chromium chromium; ensure_fonts; }
# The three font sets the layout tests run the views under (tests/browser_embed_post.js FONTS): a
# fresh Debian has DejaVu at most, and a box measured with one machine's fonts must hold in others.
FONT_PACKAGES=(fonts-dejavu-core fonts-liberation fonts-noto-core)
ensure_fonts() {
    local missing=() p
    for p in "${FONT_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    log "installing ${missing[*]} (Debian packages)"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null || true
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
}
# Hugo builds a site on the posenc-view package in tests/browser_embed_bundlers.test.js.
ensure_hugo() { apt_ensure hugo hugo; }

# The library's C: the shared files of c_src/ and each family's own (families/<family>/*.c, *.h),
# not a family's tests (its native test_*.c and fuzz_*.h). Headers are found with -Ic_src (and a
# family's own beside its file).
lib_c() { ls c_src/*.c families/*/*.c | grep -v '/test_[^/]*\.c$'; }
# The JS the package ships: js/ and each family's glue (not its tests, declaration or bench)
shipped_js() { ls js/*.js js/*.cjs; ls families/*/*.js | grep -v -e '\.test\.js$' -e '/decl\.js$' -e '/bench\.js$'; }
lib_sources() { { find c_src -type f; find families -name '*.[ch]' ! -name 'test_*.c' ! -name 'fuzz_*.h'; } | LC_ALL=C sort; }
# The native C test programs: each family's (families/<family>/test_*.c) and the cross-family ones
# (tests/native/test_*.c); their shared headers (check.h, ...) are in tests/native (-Itests/native).
native_tests() { if [ -n "${1:-}" ]; then ls families/"$1"/test_*.c; else ls families/*/test_*.c tests/native/test_*.c; fi; }
# The C files the formatter owns: the library, its native tests, the fuzz target, the bench limits.
c_files() { find c_src families tests/native tests/fuzz bench -name '*.[ch]' | sort; }
# Lint and format check, no writes: Biome over the JS/TS that biome.json includes (warnings are
# printed, errors fail), clang-format over c_files. tests/lint.test.js runs it.
lint() {
    apt_ensure clang-format clang-format
    log "biome ci (lint + format check)"
    npx biome ci --reporter=summary --colors=off .
    log "clang-format --dry-run --Werror ($(c_files | wc -l) C files)"
    c_files | xargs clang-format --dry-run --Werror
}
format() {
    apt_ensure clang-format clang-format
    npx biome format --write .
    c_files | xargs clang-format -i
}

hash_of() { cat "$@" | sha256sum | cut -c1-64; }
# fresh OUT KEY: OUT exists and its stamp holds KEY, the hash of its inputs taken before it was
# built (an input edited during the build then leaves the stamp stale); see build_native
fresh() { [ -f "$1" ] && [ -f "$(dirname "$1")/.$(basename "$1").stamp" ] &&
    [ "$(cat "$(dirname "$1")/.$(basename "$1").stamp")" = "$2" ]; }
# stamp OUT KEY: record that OUT was built from inputs hashing to KEY (only after it was)
stamp() { echo "$2" > "$(dirname "$1")/.$(basename "$1").stamp"; }
# gzip -9 size of the files concatenated, with node's zlib: the number tests/package.test.js budgets
gz_size() { node -e 'const fs=require("fs"),z=require("zlib");process.stdout.write(String(z.gzipSync(Buffer.concat(process.argv.slice(1).map((f)=>fs.readFileSync(f))),{level:9}).length))' "$@"; }

# The seven wasm artifacts, one row each: the file, the objects it links (compile_objects below:
# simd, scalar or page), its export list (c_src/, one C name a line; the linker keeps only what
# the list reaches) and its link flags (LINK_npm, LINK_page or LINK_lite).
#
# The lite objects are the page's plus c_src/lite_*.c, which no other artifact links.
#
#   artifact                              objects  exports                     link  what
ARTIFACTS=(
    "dist/posenc.simd.wasm                  simd     exports.txt                 npm   npm core, SIMD128"
    "dist/posenc.wasm                       scalar   exports.txt                 npm   npm core, scalar"
    "dist/posenc-lab.simd.wasm              simd     exports_lab.txt             npm   lab trainer, SIMD128"
    "dist/posenc-lab.wasm                   scalar   exports_lab.txt             npm   lab trainer, scalar (tests only)"
    "dist/posenc-page.simd.wasm             page     exports_page.txt            page  page: encodings"
    "dist/posenc-page-attention.simd.wasm   page     exports_page_attention.txt  page  page: + attention"
    "dist/posenc-lite.simd.wasm             lite     exports_lite.txt            lite  posenc/lite: sinusoidal, learned"
)
WASM_FILES=(); for row in "${ARTIFACTS[@]}"; do WASM_FILES+=("${row%% *}"); done
# The npm package's builds ship as JS modules (js/loader.js imports them): FILE.wasm.js exports
# the gzipped wasm as base64 text, which every bundler bundles with no configuration. The scalar
# lab is built for the tests (the SIMD and scalar trainers agree bit for bit) but not shipped.
NPM_WASM=(dist/posenc.simd.wasm dist/posenc.wasm dist/posenc-lab.simd.wasm dist/posenc-lite.simd.wasm)
wasm_module() { # wasm_module FILE.wasm: write FILE.wasm.js (through a temporary name)
    node -e 'const fs=require("fs"),z=require("zlib"),[src,dst]=process.argv.slice(1);
fs.writeFileSync(dst,`// ${src.split("/").pop()}, gzipped, base64 (build.sh; js/loader.js imports it)\n`+
`export default "${z.gzipSync(fs.readFileSync(src),{level:9}).toString("base64")}";\n`)' "$1" "$1.tmp.$$.js"
    mv "$1.tmp.$$.js" "$1.js"
}
names_of() { grep -v '^\s*#' "c_src/$1" | grep -v '^\s*$' | tr -d ' \t'; }
# -sEXPORTED_FUNCTIONS for an export list. A page list may name only what the npm core exports,
# so a renamed entry point fails here, naming the list, not later as a missing export.
exported_functions() {
    if [ "$1" != exports.txt ] && [ "$1" != exports_lab.txt ]; then
        local extra; extra=$(names_of "$1" | grep -vxF -f <(names_of exports.txt) || true)
        [ -z "$extra" ] || { log "c_src/$1 names what c_src/exports.txt does not: $extra"; return 1; }
    fi
    printf -- '-sEXPORTED_FUNCTIONS=%s' "$(names_of "$1" | sed 's/^/_/' | paste -sd, -)"
}
# The core and the extrapolation lab's trainer are modules linked from the same objects: the linker
# keeps only what each export list reaches, so the core download carries no trainer.
#
# Optimisation is per file, for size without losing speed (docs/benchmark.md has the measurements):
# in the SIMD build the RoPE, relative (Shaw, XL), sinusoidal, trig and learned files are compiled -O3
# and every other file -O3 without loop unrolling (alibi.c and t5.c too: their rows are copied by
# posenc__copy32, hand-unrolled f32x4 code; compiled with unrolling they were no faster, 2048^2
# T5 1.13 vs 1.05 ms and 16-head ALiBi 18.2 vs 18.5 ms, interleaved raw calls): their kernels are explicit f32x4 code, and the
# unrolled copies of set-up, validation and the trainer were a third of the module. attention.c is
# one of those since its micro-kernels are register-blocked by hand: unrolled, it was 13.8 kB larger
# at the same speed (tools/ab_wasm.js, every bias kind and GQA within 2%). The scalar build keeps
# unrolling everywhere: without it its sine and RoPE polynomials ran 5x slower. The link runs
# binaryen at -Oz, which costs no measured speed. dlmalloc stays: emmalloc would save 2 kB, but its
# mallinfo counts differently and the leak tests read it.
CFLAGS_WASM=(-std=c11 -Wall -Wextra -Werror -ffp-contract=off)
LINK_npm=(-Oz --no-entry -sSTANDALONE_WASM -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=16MB
    -sMAXIMUM_MEMORY=2GB -sERROR_ON_UNDEFINED_SYMBOLS=1)
# posenc/lite's lean core (js/lite.js) is compiled like the page's, plus c_src/lite_*.c (musl's
# long argument reduction with the table a double reads, exp's table computed at start, and an
# allocator of its own; each file says why): an app that names only the sinusoidal and learned
# families downloads it (9.8 kB gzipped where the core is 39 kB).
# The page's own two cores (web/src/api.js), not in the npm package, SIMD only (engines without
# SIMD load the full scalar core):
# - posenc-page: the encodings, no attention and no KV cache. An embedded heatmap or wave plot
#   downloads this one.
# - posenc-page-attention: the encodings and the attention the page calls (families/attention/attention.js calls
#   the grouped-query entry points only), no KV cache. The page itself and the views that call
#   attention (Bias, the Shuffle lab).
# Both are compiled for size at the npm core's speed: -O2 without loop unrolling (-Os and -Oz made
# sinusoidal 6x, RoPE 10x and attention 14-17x slower), and emmalloc (heapInUse is a diagnostic the
# page never reads). Floating point is the same operations in the same order as the npm core
# (-ffp-contract=off everywhere): tests/page_core.test.js checks every family bit for bit against
# it, `node bench/index.js page-cores` times them. Sizes: docs/benchmark.md "Size".
LINK_page=("${LINK_npm[@]}" -sMALLOC=emmalloc)
# posenc/lite's lean core brings its own allocator (c_src/lite_malloc.c says why)
LINK_lite=("${LINK_npm[@]}" -sMALLOC=none)

# compile_objects DIR HOT [FLAGS...]: every library C file (lib_c) but lite_*.c to DIR/*.o; the
# files named in HOT (or all) with loop unrolling. FLAGS come last, so an -O there overrides.
compile_objects() {
    local dir=$1 hot=" $2 "; shift 2
    rm -rf "$dir"; mkdir -p "$dir"
    local f b opt
    for f in $(lib_c); do
        b=$(basename "$f" .c)
        [[ $b == lite_* ]] && continue
        if [ "$hot" = " all " ] || [[ "$hot" == *" $b "* ]]; then opt=(-O3); else opt=(-O3 -fno-unroll-loops); fi
        emcc -c "$f" "${CFLAGS_WASM[@]}" -Ic_src "${opt[@]}" "$@" -o "$dir/$b.o"
    done
}

build_wasm() {
    mkdir -p dist build
    # One wasm build at a time per checkout: a second `./build.sh wasm` waits for the first, then
    # finds the stamp up to date (both would compile into build/wasm-obj and link into dist).
    if command -v flock >/dev/null; then exec 9>build/.wasm.lock; flock 9; fi
    local key; key=$(hash_of $(lib_sources) build.sh)
    local have=1 f; for f in "${WASM_FILES[@]}" "${NPM_WASM[@]/%/.js}"; do [ -f "$f" ] || have=0; done
    if [ -f dist/.stamp ] && [ "$(cat dist/.stamp)" = "$key" ] && [ $have = 1 ]; then
        log "wasm up to date"
    else
        local obj=build/wasm-obj
        log "emcc (scalar objects)"; compile_objects $obj/scalar all
        log "emcc (simd128 objects)"; compile_objects $obj/simd "rope relative sinusoidal trig learned" -msimd128
        log "emcc (the page's simd128 objects)"; compile_objects $obj/page "" -msimd128 -O2 -fno-unroll-loops
        # posenc/lite's: the page's, and the libm parts only the lean core replaces (c_src/lite_*.c
        # say why); a definition in an object keeps the linker from taking libc's
        rm -rf $obj/lite; cp -r $obj/page $obj/lite
        for f in c_src/lite_*.c; do
            emcc -c "$f" "${CFLAGS_WASM[@]}" -DPOSENC_LITE_CORE -msimd128 -O2 -fno-unroll-loops \
                -o "$obj/lite/$(basename "$f" .c).o"
        done
        # link to temporary names and rename, so a reader never sees half a file; a failed or
        # interrupted run leaves no temporary behind
        log "emcc (link: the ${#ARTIFACTS[@]} artifacts)"
        trap 'rm -f dist/.tmp.$$.* dist/*.wasm.tmp.$$.js' EXIT
        local row art objs list link _ flags exports
        for row in "${ARTIFACTS[@]}"; do
            read -r art objs list link _ <<< "$row"
            flags="LINK_$link[@]"
            exports=$(exported_functions "$list")
            emcc $obj/"$objs"/*.o "${!flags}" "$exports" -o "dist/.tmp.$$.${art#dist/}"
        done
        for f in "${WASM_FILES[@]}"; do mv "dist/.tmp.$$.${f#dist/}" "$f"; done
        for f in "${NPM_WASM[@]}"; do wasm_module "$f"; done
        echo "$key" > dist/.stamp
        # each C source's hash as built: tests/helpers.js names the files edited since (a stale wasm)
        sha256sum $(lib_sources) > dist/.sources
    fi
    exec 9>&- # the lock ends with the wasm build, not with what runs after it (exec node --test)
    # The page's stand-in core (web/src/api.js stubApi), from the attention core's exports and
    # struct layout; rewritten only when it changes
    node tools/standin_wasm.js dist/posenc-page-attention.simd.wasm dist/posenc-standin.wasm.js
    for f in "${WASM_FILES[@]}"; do
        printf '[build] %-36s %8d bytes %7d gzipped  sha256 %s\n' "$f" "$(stat -c %s "$f")" "$(gz_size "$f")" "$(sha256sum "$f" | cut -c1-16)" >&2
    done
    # The JS the package ships (tests/package.test.js enforces the size budget on the tarball)
    local js; js=$(shipped_js)
    printf '[build] %-36s %8d bytes %7d gzipped  (%d files; node tools/wasm_sizes.js shows where wasm bytes go)\n' "js/*, families/*/*.js" \
        "$(cat $js | wc -c)" "$(gz_size $js)" "$(echo "$js" | wc -l)" >&2
}

# Native C tests: every native_tests program is its own program linked with the core, built
# with AddressSanitizer and UBSan. tests/native.test.js runs them under node --test.
build_native() {
    local only=${1:-} # a family's folder name: only its programs (a newcomer's loop; every C change rebuilds all)
    if [ -n "$only" ] && ! ls families/"$only"/test_*.c >/dev/null 2>&1; then
        echo "build.sh native: no families/$only/test_*.c (a family is one of: $(ls families | paste -sd' '))" >&2; exit 2
    fi
    mkdir -p build/native
    local san=(-fsanitize=address,undefined -fno-sanitize-recover=all)
    echo 'int main(void){return 0;}' > build/native/probe.c
    if ! clang "${san[@]}" build/native/probe.c -o build/native/probe 2>/dev/null; then
        log "sanitizer runtime missing: native tests built without sanitizers"; san=()
    fi
    # Each target has its own stamp (DIR/.NAME.stamp: the hash of what it is built from), written
    # only after that target is built, and trusted only while the target itself exists: a failed
    # or interrupted build never leaves a valid stamp beside a missing or stale binary.
    local built=0 t out key srcs cs
    srcs=$(lib_sources); cs=$(lib_c) # every input of the hash, every C file compiled
    echo "${san[*]}" > build/native/san.flags # a change of sanitizers rebuilds every target
    for t in $(native_tests "$only"); do
        out=build/native/$(basename "$t" .c)
        key=$(hash_of $srcs tests/native/*.h "$t" build.sh build/native/san.flags)
        fresh "$out" "$key" && continue
        clang -std=c11 -O1 -g -Wall -Wextra -Werror -ffp-contract=off "${san[@]}" -Ic_src -Itests/native \
            $cs "$t" -lm -o "$out"
        stamp "$out" "$key"; built=$((built + 1))
    done
    # The same programs on the SIMD kernels (wasm simd128, run under node by tests/native.test.js),
    # so each SIMD kernel meets its scalar reference too. The wasm is inlined in the .js: Debian's
    # emcc glue cannot locate a separate .wasm under node. The glue is CommonJS (the repository's
    # package.json says "module").
    mkdir -p build/native/simd
    echo '{ "type": "commonjs" }' > build/native/simd/package.json
    for t in $(native_tests "$only"); do
        out=build/native/simd/$(basename "$t" .c).js
        key=$(hash_of $srcs tests/native/*.h "$t" build.sh)
        fresh "$out" "$key" && continue
        emcc -std=c11 -O2 -Wall -Wextra -Werror -ffp-contract=off -msimd128 -Ic_src -Itests/native $cs "$t" \
            -sALLOW_MEMORY_GROWTH=1 -sENVIRONMENT=node -sSINGLE_FILE=1 -o "$out"
        stamp "$out" "$key"; built=$((built + 1))
    done
    # libFuzzer targets (bounded runs under node --test). Where libFuzzer is missing, the reason is
    # written to build/native/fuzz.unavailable (tests/native.test.js skips with it, and fails when
    # a target is missing without it). A target that does not compile where libFuzzer works is an
    # error, never a stale binary run.
    echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n){(void)d;(void)n;return 0;}' > build/native/probe_fuzz.c
    if [ ${#san[@]} -gt 0 ] && clang -fsanitize=fuzzer build/native/probe_fuzz.c -o build/native/probe_fuzz 2>/dev/null; then
        rm -f build/native/fuzz.unavailable
        for t in tests/fuzz/fuzz_*.c; do
            out=build/native/$(basename "$t" .c)
            # the key: the library, each family's fuzz steps (fuzz_*.h), the target and build.sh
            key=$(hash_of $srcs families/*/fuzz_*.h "$t" build.sh)
            fresh "$out" "$key" && continue
            rm -f "$out" # no stale binary survives a failed compile
            clang -std=c11 -O1 -g -Wall -Wextra -Werror -ffp-contract=off -fsanitize=fuzzer,address,undefined \
                -fno-sanitize-recover=all -Ic_src $cs "$t" -lm -o "$out"
            stamp "$out" "$key"; built=$((built + 1))
        done
    else
        rm -f build/native/fuzz_*
        log "libFuzzer unavailable: fuzz targets not built"
        echo "libFuzzer unavailable (clang -fsanitize=fuzzer$([ ${#san[@]} -gt 0 ] || echo ', or the sanitizer runtime,') failed when build.sh last ran)" > build/native/fuzz.unavailable
    fi
    log "native tests: $built built, $(native_tests "$only" | wc -l) programs${only:+ (families/$only only)}, fuzz targets: $(ls build/native/fuzz_* 2>/dev/null | wc -l)"
}

build_bench() {
    mkdir -p build/bench
    if [ ! -f build/bench/limits.wasm ] || [ bench/limits.c -nt build/bench/limits.wasm ]; then
        emcc bench/limits.c -O3 -msimd128 -mbulk-memory --no-entry -sSTANDALONE_WASM \
            -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=2GB -sEXPORTED_FUNCTIONS=$(grep -o 'bench_[a-z0-9_]*(' bench/limits.c | tr -d '(' | sed 's/^/_/' | paste -sd, -) \
            -o build/bench/limits.wasm
    fi
}

# The <posenc-view> package from the page's sources: `vite build --mode package` writes the element
# and its chunks to build/posenc-view/, packages/posenc-view/assemble.js adds its package.json
# (this repository's version), components, heights, types, README and licence, and `npm pack`
# makes build/posenc-view-VERSION.tgz, the file a blogger installs (packages/posenc-view/ is only
# its source: `npm pack` there refuses).
build_element() {
    log "vite build --mode package (posenc-view)"; npx vite build web --mode package --logLevel warn >&2
    node packages/posenc-view/assemble.js
    local tgz
    tgz=$(cd build && npm pack ./posenc-view --json 2>/dev/null | node -e 'const [i]=JSON.parse(require("fs").readFileSync(0,"utf8"));process.stdout.write(i.filename)')
    log "build/$tgz $(wc -c < "build/$tgz") bytes ($(tar -tzf "build/$tgz" | wc -l) files)"
}
# The page, then the element package from the same sources.
build_web() {
    log "vite build"; npx vite build web --logLevel warn >&2
    build_element
}

cmd=${1:-build}
case "$cmd" in
    wasm) build_wasm ;;
    element) ensure_toolchain; ensure_npm; build_wasm; build_element ;;
    native) ensure_toolchain; build_native "${2:-}" ;;
    build) ensure_toolchain; ensure_npm; build_wasm; build_native; build_web ;;
    serve) ensure_toolchain; ensure_npm; build_wasm; build_web
           log "serving the built page at http://127.0.0.1:5173 (Ctrl-C stops)"
           exec npx vite preview web --host 127.0.0.1 --port 5173 --strictPort ;;
    test) ensure_toolchain; ensure_chromium; ensure_hugo; ensure_npm; build_wasm; build_native; build_web
          exec node --test --test-concurrency=2 tests/ families/ ;;
    bench) ensure_toolchain; ensure_npm; build_wasm; build_bench
           # the page group drives headless Chromium over the built page
           if [ $# -lt 2 ] || [[ " ${*:2} " == *" page "* ]]; then ensure_chromium; build_web; fi
           exec node bench/index.js "${@:2}" ;;
    lint) ensure_npm; lint ;;
    format) ensure_npm; format ;;
    *) echo "usage: $0 [build|serve|test|bench|element|wasm|native|lint|format]" >&2; exit 2 ;;
esac
