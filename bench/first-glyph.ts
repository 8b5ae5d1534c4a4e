import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { DriverOutput, Sample } from './first-glyph-driver';
import { ROOT } from './shadow';
import { median, percentile, type BenchResult } from './util';

// 6. Time to the first glyph of the same answer in VS Code's own Chat view (`@docs`) and in the
// extension's webview (Ask Docs), side by side in one code-server 4.139.1 workbench: both
// surfaces open at once, the same question asked through each in turn, round after round,
// alternating which goes first. The emulator starts each answer with a word unique to it
// (`[[answer:first:<word>]]`) and notes when it wrote the first text delta to the socket; a
// MutationObserver in the page notes when that word is in the DOM (the Chat view's newest
// response, the webview's answer). Both are Date.now() of the same machine. The rounds run in
// first-glyph-driver.ts, under tsx in a child process (see there why).

/** Measured rounds, each one answer per surface, after one warm-up round (FIRST_GLYPH_ROUNDS overrides). */
const ROUNDS = 20;
/** The Chat view takes a model only from VS Code 1.104 (test/e2e/chatView.ts); 4.139.1 carries 1.139.1. */
const CODE_SERVER = '4.139.1';
const CODE_SERVER_ENV = 'DOCS_ASSISTANT_CODE_SERVER';
const VSIX = join(ROOT, 'docs-assistant.vsix');
const NAME = 'First glyph: the same answer in the Chat view (@docs) and in the webview, one code-server';

function skipped(why: string): BenchResult {
  return { name: NAME, rows: [['not run', why]], budgets: [], raw: { skipped: why } };
}

/** The newest modification time of a file under `dir`. */
function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

/** Why the bench cannot run here, or undefined. */
function missing(): string | undefined {
  const chosen = process.env[CODE_SERVER_ENV]?.trim();
  if (chosen && chosen !== CODE_SERVER)
    return `needs code-server ${CODE_SERVER} (VS Code 1.139; the Chat view takes the test-only model from 1.104), and ${CODE_SERVER_ENV}=${chosen} chooses another. Run it without ${CODE_SERVER_ENV} or with ${CODE_SERVER_ENV}=${CODE_SERVER}.`;
  if (!existsSync(join(ROOT, '.vscode-test', `code-server-${CODE_SERVER}`, 'READY')))
    return `needs code-server ${CODE_SERVER}: node scripts/vscode/install-code-server.mjs ${CODE_SERVER} (a few minutes, once).`;
  if (!existsSync(VSIX)) return 'needs docs-assistant.vsix: run `npm run package` first (npm run test:e2e does).';
  if (!existsSync('/usr/bin/chromium')) return 'needs /usr/bin/chromium (apt-get install -y chromium).';
  return undefined;
}

const ms = (n: number): string => `${Math.round(n)} ms`;
const stats = (xs: number[]): string => `median ${ms(median(xs))}, p90 ${ms(percentile(xs, 90))}`;

export async function benchFirstGlyph(): Promise<BenchResult> {
  const why = missing();
  if (why) return skipped(why);
  const rounds = Number(process.env.FIRST_GLYPH_ROUNDS ?? ROUNDS);
  const load = loadavg()[0]!;
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'first-glyph-driver.ts')], {
    cwd: ROOT,
    env: { ...process.env, [CODE_SERVER_ENV]: CODE_SERVER, FIRST_GLYPH_ROUNDS: String(rounds) },
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    timeout: 5 * 60_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  const last = r.stdout?.trim().split('\n').at(-1) ?? '';
  if (r.status !== 0 || !last.startsWith('{')) throw new Error(`first-glyph-driver.ts failed (exit ${r.status ?? r.signal}): ${r.error?.message ?? last}`);
  const out = JSON.parse(last) as DriverOutput;
  if ('skipped' in out) return skipped(out.skipped);

  const counted = out.samples.filter((s) => s.round > 0);
  const requests = new Set(out.samples.map((s) => s.request));
  if (requests.size !== 1) throw new Error(`The surfaces did not ask the same thing, so their answers differ: ${[...requests].join(' vs ')}`);
  const of = (surface: Sample['surface']) => counted.filter((s) => s.surface === surface);
  const chat = of('chatView');
  const web = of('webview');
  const glyph = (xs: Sample[]) => xs.map((s) => s.glyphAt - s.writeAt);
  const sent = (xs: Sample[]) => xs.map((s) => s.glyphAt - s.sentAt);
  const toRequest = (xs: Sample[]) => xs.map((s) => s.requestAt - s.sentAt);
  const toWrite = (xs: Sample[]) => xs.map((s) => s.writeAt - s.requestAt);
  const ratio = (p: (xs: number[]) => number) => p(glyph(chat)) / Math.max(1, p(glyph(web)));
  const ratioMedian = ratio(median);
  const ratioP90 = ratio((xs) => percentile(xs, 90));
  const stale = statSync(VSIX).mtimeMs < newest(join(ROOT, 'src'));
  const list = (xs: number[]) => xs.join(', ');
  return {
    name: NAME,
    rows: [
      ['stack', `${out.codeServer}, both surfaces side by side in one workbench; ${out.seconds.toFixed(0)} s at a load average of ${load.toFixed(1)}`],
      ['rounds', `${rounds} (+1 warm-up), one answer per surface each, alternating which goes first; the same request from both`],
      ['extension', `docs-assistant.vsix${stale ? ' (OLDER than src/: run `npm run package` to measure the current code)' : ''}`],
      ['Chat view: first text delta written → first glyph in DOM', stats(glyph(chat))],
      ['webview: first text delta written → first glyph in DOM', stats(glyph(web))],
      ['ratio Chat view / webview', `${ratioMedian.toFixed(2)}× (medians), ${ratioP90.toFixed(2)}× (p90s)`],
      ['each round, ms (Chat view | webview)', `${list(glyph(chat))} | ${list(glyph(web))}`],
      ['Chat view: Enter → first glyph', `${stats(sent(chat))} (Enter → request ${ms(median(toRequest(chat)))})`],
      ['webview: Enter → first glyph', `${stats(sent(web))} (Enter → request ${ms(median(toRequest(web)))})`],
      ['emulator: request → first text delta', `${ms(median(toWrite(counted)))} (its tool call and sources, 15 ms apart; the same for both)`],
    ],
    budgets: [],
    raw: {
      codeServer: out.codeServer,
      loadAverage: load,
      rounds,
      vsixOlderThanSrc: stale,
      msWriteToGlyph: {
        chatView: { median: median(glyph(chat)), p90: percentile(glyph(chat), 90) },
        webview: { median: median(glyph(web)), p90: percentile(glyph(web), 90) },
      },
      ratioChatViewToWebview: { median: ratioMedian, p90: ratioP90 },
      msSendToGlyph: { chatView: median(sent(chat)), webview: median(sent(web)) },
      seconds: out.seconds,
      samples: out.samples.map(({ request: _request, ...s }) => s),
    },
  };
}
