import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { SoakOutput, SoakPoint } from './soak-driver';
import { ROOT } from './shadow';
import type { BenchResult } from './util';

// 12. A day in one window (issue 33): 500 questions answered in the chat of one code-server
// 4.139.1 window, a new conversation every 20, against the emulator (soak-driver.ts, in a child
// process). The curve of the extension host's heap and the workbench page's heap (after a forced
// GC in each), the page's JS event listeners and DOM nodes, and the host's active timers, at
// question 0 and every 50. Budgets: growth from question 50 to 500 under 10 MB in each heap, and
// listener and timer counts flat (no more at 500 than at 50, give or take what one conversation on
// screen holds).

const CODE_SERVER = '4.139.1';
const CODE_SERVER_ENV = 'DOCS_ASSISTANT_CODE_SERVER';
const VSIX = join(ROOT, 'docs-assistant.vsix');
const NAME = '12. Soak: 500 questions in one code-server window (issue 33)';
/** Listeners one conversation of 20 turns on screen may hold beyond another (each turn's buttons). */
const LISTENER_SLACK = 200;

function skipped(why: string): BenchResult {
  return { name: NAME, rows: [['not run', why]], budgets: [], raw: { skipped: why } };
}

function missing(): string | undefined {
  const chosen = process.env[CODE_SERVER_ENV]?.trim();
  if (chosen && chosen !== CODE_SERVER) return `needs code-server ${CODE_SERVER}, and ${CODE_SERVER_ENV}=${chosen} chooses another.`;
  if (!existsSync(join(ROOT, '.vscode-test', `code-server-${CODE_SERVER}`, 'READY')))
    return `needs code-server ${CODE_SERVER}: node scripts/vscode/install-code-server.mjs ${CODE_SERVER} (a few minutes, once).`;
  if (!existsSync(VSIX)) return 'needs docs-assistant.vsix: run `npm run package` first.';
  if (!existsSync('/usr/bin/chromium')) return 'needs /usr/bin/chromium (apt-get install -y chromium).';
  return undefined;
}

const timers = (p: SoakPoint): number => p.hostResources.Timeout ?? 0;

export async function benchSoak(): Promise<BenchResult> {
  const why = missing();
  if (why) return skipped(why);
  const load = loadavg()[0]!;
  const questions = Number(process.env.SOAK_QUESTIONS ?? 500);
  const r = spawnSync(process.execPath, ['--experimental-websocket', '--import', 'tsx', join(ROOT, 'bench', 'soak-driver.ts')], {
    cwd: ROOT,
    env: { ...process.env, [CODE_SERVER_ENV]: CODE_SERVER, SOAK_QUESTIONS: String(questions) },
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    // An answer takes about a second; ten times that per question is a hung run, not a slow one.
    timeout: Math.max(5, (questions * 10) / 60) * 60_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  const last = r.stdout?.trim().split('\n').at(-1) ?? '';
  if (r.status !== 0 || !last.startsWith('{')) throw new Error(`soak-driver.ts failed (exit ${r.status ?? r.signal}): ${r.error?.message ?? last}`);
  const out = JSON.parse(last) as SoakOutput;
  if ('skipped' in out) return skipped(out.skipped);
  const { points } = out;
  const from = points.find((p) => p.question === 50) ?? points[0]!;
  const to = points.at(-1)!;
  const hostGrowth = to.hostHeapMb - from.hostHeapMb;
  const pageGrowth = to.pageHeapMb - from.pageHeapMb;
  const stale = statSync(VSIX).mtimeMs < statSync(join(ROOT, 'src')).mtimeMs;
  const rows: [string, string][] = [
    [
      'stack',
      `${out.codeServer}; ${out.questions} questions, a new conversation every ${out.perConversation}; ${out.seconds.toFixed(0)} s at a load average of ${load.toFixed(1)}`,
    ],
    ['extension', `docs-assistant.vsix${stale ? ' (older than src/: run `npm run package`)' : ''}`],
    ['curve', 'question: host heap MB, host timers | page heap MB, page listeners, page DOM nodes (after a forced GC)'],
    ...points.map((p): [string, string] => [
      `  ${p.question}`,
      `${p.hostHeapMb.toFixed(1)} MB, ${timers(p)} timers | ${p.pageHeapMb.toFixed(1)} MB, ${p.listeners} listeners, ${p.nodes} nodes`,
    ]),
  ];
  return {
    name: NAME,
    rows,
    budgets: [
      {
        what: `extension host heap growth, question ${from.question} → ${to.question}`,
        value: `${hostGrowth.toFixed(1)} MB`,
        budget: '< 10 MB',
        met: hostGrowth < 10,
      },
      {
        what: `workbench page heap growth (webview included), ${from.question} → ${to.question}`,
        value: `${pageGrowth.toFixed(1)} MB`,
        budget: '< 10 MB',
        met: pageGrowth < 10,
      },
      {
        what: `page JS event listeners, ${from.question} → ${to.question}`,
        value: `${from.listeners} → ${to.listeners}`,
        budget: `flat (± ${LISTENER_SLACK})`,
        met: to.listeners - from.listeners <= LISTENER_SLACK,
      },
      {
        what: `extension host timers, ${from.question} → ${to.question}`,
        value: `${timers(from)} → ${timers(to)}`,
        budget: 'flat (± 2)',
        met: timers(to) - timers(from) <= 2,
      },
    ],
    raw: { codeServer: out.codeServer, loadAverage: load, questions: out.questions, seconds: out.seconds, points },
  };
}
