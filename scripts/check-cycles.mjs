#!/usr/bin/env node
// Import cycles under src/, type-only imports included. A cycle means two files are one job, or a
// layer is upside down (issue 28 found two that were type-only: the agent's feature class in its
// barrel, imported back by what the barrel imports; and the chat store with its own helpers).
// ESLint's import-x/no-cycle skips `import type`, so this check reads every import itself.
//
//   node scripts/check-cycles.mjs [root]     # root defaults to the repository
//
// Exit: 0 when there is no cycle, 1 with each cycle printed, file by file.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(process.argv[2] ?? join(dirname(new URL(import.meta.url).pathname), '..'));
const src = join(root, 'src');

function* tsFiles(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* tsFiles(p);
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) yield p;
  }
}

/** The file a relative specifier names, as TypeScript resolves it without paths mapping. */
function resolveLocal(from, spec) {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(dirname(from), spec).replace(/\.js$/, '');
  for (const candidate of [base, `${base}.ts`, join(base, 'index.ts')])
    if (existsSync(candidate) && statSync(candidate).isFile() && candidate.endsWith('.ts')) return candidate;
  return undefined;
}

const graph = new Map();
for (const file of tsFiles(src)) {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  graph.set(file, [...new Set(importedFiles.map((i) => resolveLocal(file, i.fileName)).filter(Boolean))]);
}

// Tarjan's strongly connected components, iteratively (no recursion limit on a deep chain).
let index = 0;
const info = new Map();
const stack = [];
const cycles = [];
for (const start of graph.keys()) {
  if (info.has(start)) continue;
  const work = [[start, 0]];
  info.set(start, { index, low: index++, onStack: true });
  stack.push(start);
  while (work.length) {
    const frame = work[work.length - 1];
    const [v, i] = frame;
    const next = graph.get(v) ?? [];
    if (i < next.length) {
      frame[1]++;
      const w = next[i];
      if (!info.has(w)) {
        info.set(w, { index, low: index++, onStack: true });
        stack.push(w);
        work.push([w, 0]);
      } else if (info.get(w).onStack) info.get(v).low = Math.min(info.get(v).low, info.get(w).index);
      continue;
    }
    work.pop();
    if (work.length) {
      const parent = work[work.length - 1][0];
      info.get(parent).low = Math.min(info.get(parent).low, info.get(v).low);
    }
    if (info.get(v).low === info.get(v).index) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        info.get(w).onStack = false;
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component);
    }
  }
}

if (cycles.length === 0) {
  console.log(`check-cycles: no import cycle among ${graph.size} files under src/.`);
  process.exit(0);
}
for (const c of cycles) {
  const files = c.map((f) => relative(root, f)).sort();
  console.error(`check-cycles: an import cycle through ${files.length} files (type-only imports count):\n  ${files.join('\n  ')}`);
}
process.exit(1);
