// Where the repository keeps things, for the tests that walk it: the shared folders (js/, c_src/,
// docs/) and one folder per family (families/<family>/: its C, glue, declaration, docs, tests and
// bench; CONTRIBUTING.md "Where a family lives").
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

/** families/<family> for every family folder, sorted. */
export const FAMILY_DIRS = readdirSync(join(root, 'families'), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => `families/${e.name}`)
  .sort();

/** Every file directly in `dirs` whose name matches `re`, as repository paths, sorted. */
export function filesIn(dirs, re) {
  return dirs
    .flatMap((d) =>
      readdirSync(join(root, d))
        .filter((f) => re.test(f))
        .map((f) => `${d}/${f}`),
    )
    .sort();
}

/** The library's C sources: c_src/*.c and each family's (what build.sh's lib_c compiles). */
export const C_SOURCES = filesIn(['c_src', ...FAMILY_DIRS], /\.c$/);
/** The docs pages: docs/*.md and each family's. */
export const DOC_PAGES = filesIn(['docs', ...FAMILY_DIRS], /\.md$/);
/** The JS the package ships: js/ and each family's glue (not its tests, declaration or bench). */
export const SHIPPED_JS = filesIn(['js', ...FAMILY_DIRS], /\.(js|cjs)$/).filter(
  (f) => !/(\.test\.js|\/decl\.js|\/bench\.js)$/.test(f),
);
