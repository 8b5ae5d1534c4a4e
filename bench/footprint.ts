import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildShadow, packageVsix } from './shadow';
import { fakeContext, installStandIn, vscodeStandIn } from './vscodeStandIn';
import { median, type BenchResult } from './util';

// 4. Footprint and start-up: the production bundles and the .vsix as `npm run package` makes
// them, what the host bundle pulls in, and the time to load dist/extension.js and run activate()
// against a minimal stand-in for the `vscode` module.

const ROOT = join(__dirname, '..', '..');
const KB = (n: number) => `${(n / 1024).toFixed(1)} KB`;

/** Loads the bundle fresh and runs activate(); returns [load ms, activate ms]. */
function activateOnce(bundle: string, stand: Record<string, unknown>): [number, number] {
  delete require.cache[bundle];
  const t0 = performance.now();
  // A fresh CommonJS load is the thing measured: `import()` caches and cannot be undone.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ext = require(bundle) as { activate(ctx: unknown): unknown };
  const t1 = performance.now();
  const ctx = fakeContext();
  ext.activate(ctx);
  const t2 = performance.now();
  for (const d of ctx.subscriptions as { dispose(): void }[]) d.dispose();
  void stand;
  return [t1 - t0, t2 - t1];
}

export async function benchFootprint(): Promise<BenchResult> {
  // A production build and .vsix made as `npm run package` makes them, in a scratch copy, so
  // the dist/ that tests may be using at the same time is left alone.
  const shadow = buildShadow();
  try {
    return measure(shadow.dist, packageVsix(shadow));
  } finally {
    shadow.dispose();
  }
}

function measure(dist: string, vsixPath: string): BenchResult {
  const host = statSync(join(dist, 'extension.js')).size;
  const webHost = statSync(join(dist, 'web', 'extension.js')).size;
  const web = statSync(join(dist, 'webview.js')).size;
  // The browser's extension host has no Node: its bundle may require nothing but vscode.
  const webRequires = [...new Set(readFileSync(join(dist, 'web', 'extension.js'), 'utf8').match(/require\(["'][^"']+["']\)/g) ?? [])].filter(
    (r) => r !== 'require("vscode")',
  );
  const vsix = statSync(vsixPath).size;
  // marked and DOMPurify leave recognisable strings even minified. The host carries marked's lexer
  // since issue 27 (the one safe Markdown writer reads answers as CommonMark does, for exports and
  // the @docs relay); DOMPurify, which only the webview's DOM needs, may not be in it. The
  // webview bundle, which carries both, shows the check can see them.
  const heavyIn = (file: string) => {
    const src = readFileSync(join(dist, file), 'utf8');
    return [/DOMPurify|ALLOWED_URI_REGEXP/.test(src) && 'DOMPurify', /marked\(\): input parameter|\bgfm\b/.test(src) && 'marked'].filter(
      (x): x is string => !!x,
    );
  };
  const heavyOnHost = heavyIn('extension.js');
  if (heavyIn('webview.js').length !== 2) throw new Error('the library check no longer recognises marked and DOMPurify in the webview bundle');
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { activationEvents?: string[] };
  const eager = (manifest.activationEvents ?? []).filter((e) => e === '*' || e === 'onStartupFinished');

  const stand = vscodeStandIn();
  const restore = installStandIn(stand);
  const bundle = join(dist, 'extension.js');
  const loads: number[] = [];
  const activations: number[] = [];
  try {
    for (let i = 0; i < 3; i++) activateOnce(bundle, stand);
    for (let i = 0; i < 20; i++) {
      const [l, a] = activateOnce(bundle, stand);
      loads.push(l);
      activations.push(a);
    }
  } finally {
    restore();
  }
  const load = median(loads);
  const act = median(activations);
  return {
    name: 'Footprint and start-up (production build)',
    rows: [
      [
        'activationEvents',
        manifest.activationEvents?.length ? manifest.activationEvents.join(', ') : '(none: inferred from the contributed commands and views)',
      ],
      ['marked / DOMPurify in the host bundle', heavyOnHost.length ? heavyOnHost.join(', ') : 'neither'],
      ['load dist/extension.js (median of 20)', `${load.toFixed(2)} ms`],
      ['activate() (median of 20)', `${act.toFixed(2)} ms`],
    ],
    budgets: [
      // 150 KB until issue 27 put marked's lexer (about 45 KB minified) in the host.
      { what: 'host bundle (Node)', value: KB(host), budget: '≤ 210 KB', met: host <= 210 * 1024 },
      { what: 'host bundle (browser, web worker)', value: KB(webHost), budget: '≤ 210 KB', met: webHost <= 210 * 1024 },
      {
        what: 'modules the browser bundle requires besides vscode',
        value: webRequires.length ? webRequires.join(', ') : 'none',
        budget: 'none',
        met: webRequires.length === 0,
      },
      { what: 'webview bundle', value: KB(web), budget: '≤ 150 KB', met: web <= 150 * 1024 },
      { what: '.vsix', value: KB(vsix), budget: '≤ 400 KB', met: vsix <= 400 * 1024 },
      { what: 'load + activate', value: `${(load + act).toFixed(1)} ms`, budget: '≤ 20 ms', met: load + act <= 20 },
      { what: 'eager activation (*, onStartupFinished)', value: eager.length ? eager.join(', ') : 'none', budget: 'none', met: eager.length === 0 },
      {
        what: 'heavy libraries on the host',
        value: heavyOnHost.length ? heavyOnHost.join(', ') : 'none',
        budget: 'marked only',
        met: heavyOnHost.every((l) => l === 'marked'),
      },
    ],
    raw: { hostBytes: host, webviewBytes: web, vsixBytes: vsix, loadMs: load, activateMs: act, heavyOnHost, eager },
  };
}
