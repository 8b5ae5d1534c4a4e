// Enforces the three layers the guide draws, so that they hold by rule, not by hope:
//   src/api      the service client: plain Node/fetch, no `vscode`, nothing from the features
//   src/common   shared by every layer (host and webview): no `vscode`, no Node built-ins
//   src/webview  a browser bundle: no `vscode`, no Node, no service client
//   src/agent, src/chat  features: they meet through commands, never by importing each other
// Exits non-zero with one line per violation.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname, sep } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const src = join(root, 'src');

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* files(p);
    else if (/\.(ts|tsx|mts)$/.test(name)) yield p;
  }
}

const IMPORT_RE = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;
const NODE_BUILTINS = /^(node:|fs$|path$|os$|http$|https$|net$|tls$|crypto$|child_process$|url$|stream$|util$|events$|buffer$|zlib$|worker_threads$)/;

/** Top-level folder under src/ a module resolves into, or undefined for a package import. */
function layerOf(fromFile, spec) {
  if (!spec.startsWith('.')) return undefined;
  const target = relative(src, resolve(dirname(fromFile), spec));
  return target.split(sep)[0];
}

const rules = [
  { layer: 'api', forbid: (spec, to) => spec === 'vscode' || (to !== undefined && to !== 'api'), why: 'src/api is plain Node: no vscode, no other src/ folder' },
  { layer: 'common', forbid: (spec, to) => spec === 'vscode' || NODE_BUILTINS.test(spec) || (to !== undefined && to !== 'common'), why: 'src/common is shared with the webview: no vscode, no Node, no other src/ folder' },
  { layer: 'webview', forbid: (spec, to) => spec === 'vscode' || NODE_BUILTINS.test(spec) || (to !== undefined && to !== 'webview' && to !== 'common'), why: 'src/webview is a browser bundle: only itself, src/common and browser packages' },
  { layer: 'agent', forbid: (_spec, to) => to === 'chat' || to === 'webview', why: 'features meet through commands: src/agent must not import src/chat' },
  { layer: 'chat', forbid: (_spec, to) => to === 'agent', why: 'features meet through commands: src/chat must not import src/agent' },
  { layer: 'host', forbid: (_spec, to) => to === 'agent' || to === 'chat' || to === 'webview', why: 'src/host is shared by the features and must not depend on them' },
];

// Files that are loaded outside the extension host too (the webview tests render this HTML in a browser).
const vscodeFree = new Set(['src/chat/webviewHtml.ts']);

const problems = [];
for (const file of files(src)) {
  const rel = relative(root, file).split(sep).join('/');
  const layer = rel.split('/')[1];
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(IMPORT_RE)) {
    const spec = m[1];
    const to = layerOf(file, spec);
    for (const rule of rules) {
      if (rule.layer === layer && rule.forbid(spec, to)) problems.push(`${rel}: imports '${spec}' — ${rule.why}`);
    }
    if (vscodeFree.has(rel) && (spec === 'vscode' || NODE_BUILTINS.test(spec))) problems.push(`${rel}: imports '${spec}' — this module also runs in the browser`);
  }
}

if (problems.length) {
  console.error(`check-layers: ${problems.length} layer violation(s):\n${problems.join('\n')}`);
  process.exit(1);
}
console.log('check-layers: layers ok');
