#!/usr/bin/env node
// How long each function in the shipped code is, counted the way a reader holds it in mind: a
// function's "own" lines are its span minus the spans of the functions nested in it (a family's
// factory that returns ten short methods is short; a method with six modes in one body is not).
// tests/function_length.test.js holds every shipped function to LIMIT own lines.
//
//   node tools/function_lengths.js [--min N] [paths...]   list functions of at least N own lines
//
// JS is parsed with the TypeScript compiler (a devDependency). C is read by its layout, which
// clang-format keeps fixed: a definition starts at column 0 and its body's closing brace is a
// `}` alone at column 0; C has no nested functions.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
/** Own lines a shipped function may have (CONTRIBUTING.md, "How the code is written"). */
export const LIMIT = 80;
/** The page's views and shell keep their state in objects passed to short functions, not in one
 * closure over shared variables: no function in web/src spans more than this, nested ones included. */
export const SPAN_LIMIT = 150;
/** The code users run: the library (js/, c_src/ and each family's C and glue, not its tests,
 * declaration or bench) and the page (the element package is built from web/src). Git pathspecs. */
export const SHIPPED = [
  'js',
  'c_src',
  'families',
  ':!families/*/*.test.js',
  ':!families/*/decl.js',
  ':!families/*/bench.js',
  'web/src',
];

const isFn = (n) =>
  ts.isFunctionDeclaration(n) ||
  ts.isFunctionExpression(n) ||
  ts.isArrowFunction(n) ||
  ts.isMethodDeclaration(n) ||
  ts.isGetAccessor(n) ||
  ts.isSetAccessor(n) ||
  ts.isConstructorDeclaration(n);

function jsName(n) {
  if (n.name) return n.name.getText();
  const p = n.parent;
  if (p && (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p))) return p.name.getText();
  if (p && ts.isCallExpression(p)) return `callback of ${p.expression.getText().slice(0, 40)}`;
  return '(anonymous)';
}

/** Every function of one JS file: { file, line, name, span, own }. */
export function jsFunctions(file, text) {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const line = (pos) => sf.getLineAndCharacterOfPosition(pos).line;
  const span = (n) => line(n.end) - line(n.getStart(sf)) + 1;
  const out = [];
  const visit = (n) => {
    if (isFn(n)) {
      let nested = 0;
      const inner = (c) => {
        if (isFn(c)) nested += span(c);
        else ts.forEachChild(c, inner);
      };
      ts.forEachChild(n, inner);
      out.push({ file, line: line(n.getStart(sf)) + 1, name: jsName(n), span: span(n), own: span(n) - nested });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/** Every function definition of one C file, by clang-format's layout (see the top). */
export function cFunctions(file, text) {
  const lines = text.split('\n');
  const out = [];
  let start = -1;
  let name = '';
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (start < 0) {
      // A definition's first line: column 0, an identifier, a '(' and (maybe lines later) ') {'.
      if (!/^[A-Za-z_]/.test(l) || /^(typedef|struct|enum|union|extern)\b/.test(l) || !l.includes('(')) continue;
      const end = (t) => t.replace(/\s*\/\*.*\*\/\s*$/, ''); // a trailing /* comment */ aside
      // The signature ends at the first line ending in '{' (a body follows), ';' (a declaration)
      // or '}' (a one-line definition, which counts one line); a blank line ends the search.
      let j = i;
      while (j + 1 < lines.length && j - i < 8 && end(lines[j]).trim() && !/[;{}]\s*$/.test(end(lines[j]))) j++;
      const sig = lines.slice(i, j + 1).join(' ');
      const fname = sig.replace(/__attribute__\s*\(\(.*?\)\)/g, '').match(/([A-Za-z_]\w*)\s*\(/)?.[1] ?? '?';
      if (/\)\s*\{.*\}\s*$/.test(end(lines[j]))) {
        out.push({ file, line: i + 1, name: fname, span: j - i + 1, own: j - i + 1 });
        i = j;
        continue;
      }
      if (!/\)\s*\{\s*$/.test(end(lines[j]))) continue;
      start = i;
      name = fname;
      i = j;
    } else if (l === '}') {
      out.push({ file, line: start + 1, name, span: i - start + 1, own: i - start + 1 });
      start = -1;
    }
  }
  return out;
}

/** Every function in the shipped code (or in `paths`, files or directories under ROOT). */
export function allFunctions(paths = SHIPPED) {
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '--', ...paths], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((f) => /\.(js|mjs|c)$/.test(f) && !f.includes('/dist/'));
  const out = [];
  for (const f of files) {
    let text;
    try {
      text = readFileSync(`${ROOT}/${f}`, 'utf8');
    } catch {
      continue; // listed by git but deleted in the work tree
    }
    out.push(...(f.endsWith('.c') ? cFunctions(f, text) : jsFunctions(f, text)));
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const i = args.indexOf('--min');
  const min = i < 0 ? LIMIT : Number(args.splice(i, 2)[1]);
  const fns = allFunctions(args.length ? args : SHIPPED).filter((f) => f.own >= min);
  fns.sort((a, b) => b.own - a.own);
  for (const f of fns)
    console.log(`${String(f.own).padStart(4)} own ${String(f.span).padStart(4)} span  ${f.file}:${f.line} ${f.name}`);
  console.log(`${fns.length} function(s) of at least ${min} own lines (limit ${LIMIT})`);
}
