import type { CDPSession, Page } from 'playwright-core';
import { benchSnapshot, benchTurn } from './snapshot';
import { mainThreadWork, type Budget } from './util';

// Part of the render benchmark (issue 21): does the cost of one render grow with the block it
// renders? One long block of each kind streams alone, 20 characters a frame (the cost run's pace),
// and Chromium's own script + style + layout time (CDP) is read after the first tenth of it and
// before its last tenth: the cost of a render near the start of the block against one near its end.
// The same paragraph runs in the plain-text floor's page too (floorMarkdown.ts: the text appended
// to one text node): Chromium lays a paragraph's lines out again whole, so its own cost of a
// render grows with the paragraph whatever the renderer does.

const w = (i: number) => ['relay', 'the', 'timeout', 'connection', '**retried**', 'when', '`queue`', 'delivery.'][i % 8];
const sentence = (i: number) => `${Array.from({ length: 12 }, (_, k) => w(i * 7 + k)).join(' ')}.`;

/** About 10 KB of each kind of block a long answer holds. */
export const GROWING_BLOCKS: Record<string, string> = {
  paragraph: `${Array.from({ length: 110 }, (_, i) => sentence(i)).join(' ')}\n`,
  'bulleted list': `${Array.from({ length: 110 }, (_, i) => `- ${sentence(i)}`).join('\n')}\n`,
  'numbered list': `${Array.from({ length: 110 }, (_, i) => `${i + 1}. ${sentence(i)}`).join('\n')}\n`,
  table: `${['| Setting | Default | Meaning |', '|---|:-:|---|', ...Array.from({ length: 120 }, (_, i) => `| \`relay.${i}\` | ${i} | ${sentence(i).slice(0, 50)} |`)].join('\n')}\n`,
  'code block': `\`\`\`ts\n${Array.from({ length: 220 }, (_, i) => `const option${i} = relay.configure({ retries: ${i % 5} });`).join('\n')}\n\`\`\`\n`,
  quote: `${Array.from({ length: 110 }, (_, i) => `> ${sentence(i)}`).join('\n')}\n`,
};

const PIECE = 20;
/** The share of the block at its start, and at its end, whose renders are compared. */
const EDGE = 0.1;

/** Cost of a render (µs, script+style+layout per layout pass) in the block's first and last tenth. */
async function growth(page: Page, cdp: CDPSession, text: string, id: string): Promise<{ first: number; last: number }> {
  const pieces = text.match(new RegExp(`[^]{1,${PIECE}}`, 'g'))!;
  const edge = Math.round(pieces.length * EDGE);
  const run = (from: number, to: number, start?: unknown) =>
    page.evaluate(
      ([pieces, start]) => {
        const f = window as unknown as { __frame(): void };
        const notify = (name: string, payload: unknown) => window.dispatchEvent(new MessageEvent('message', { data: { kind: 'notify', name, payload } }));
        if (start) {
          notify('snapshot', start);
          f.__frame();
        }
        for (const text of pieces) {
          notify('patch', { turnId: 't1', patches: [{ op: 'appendText', part: 0, text }] });
          f.__frame();
          void document.body.offsetHeight;
        }
      },
      [pieces.slice(from, to), start] as const,
    );
  await run(0, 0, benchSnapshot(`growth-${id}`, benchTurn('', 'streaming')));
  const a = await mainThreadWork(cdp);
  await run(0, edge);
  const b = await mainThreadWork(cdp);
  await run(edge, pieces.length - edge);
  const c = await mainThreadWork(cdp);
  await run(pieces.length - edge, pieces.length);
  const d = await mainThreadWork(cdp);
  const per = (x: typeof a, y: typeof a) => ((y.ms - x.ms) / Math.max(1, y.layouts - x.layouts)) * 1000;
  return { first: per(a, b), last: per(c, d) };
}

export interface GrowthRun {
  kind: string;
  first: number;
  last: number;
}

/** Each kind `runs` times in `page` (median of each end), and the paragraph in `floorPage`. */
export async function benchGrowth(page: Page, floorPage: Page, runs = 3): Promise<{ rows: [string, string][]; budgets: Budget[]; raw: GrowthRun[] }> {
  const measureIn = async (p: Page, kind: string): Promise<GrowthRun> => {
    const cdp = await p.context().newCDPSession(p);
    await cdp.send('Performance.enable');
    const all: { first: number; last: number }[] = [];
    for (let i = 0; i < runs; i++) all.push(await growth(p, cdp, GROWING_BLOCKS[kind]!, `${kind}-${i}`));
    await cdp.detach();
    const mid = (xs: number[]) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
    return { kind, first: mid(all.map((r) => r.first)), last: mid(all.map((r) => r.last)) };
  };
  const raw: GrowthRun[] = [];
  for (const kind of Object.keys(GROWING_BLOCKS)) raw.push(await measureIn(page, kind));
  const floor = { ...(await measureIn(floorPage, 'paragraph')), kind: 'paragraph, plain-text floor' };
  // A streamed quote is one paragraph too: the same text as plain text in one paragraph is what
  // Chromium alone does with it, shown beside the quote's budget, which stays the issue's ≤ 2×.
  const quoteFloor = { ...(await measureIn(floorPage, 'quote')), kind: 'quote, plain-text floor' };
  raw.push(floor, quoteFloor);
  const µs = (n: number) => `${Math.round(n)} µs`;
  const rows: [string, string][] = [
    ['a render as the block grows (~10 KB)', 'near its start → near its end (script+style+layout per render, median of 3)'],
    ...raw.map((r): [string, string] => [`  ${r.kind}`, `${µs(r.first)} → ${µs(r.last)} (${(r.last / r.first).toFixed(1)}×)`]),
  ];
  // Issue 34's budget: every kind ≤ 2×, bar a paragraph, which may grow as much as Chromium's own
  // layout of the same paragraph as plain text grows.
  const growthOf = (r: GrowthRun) => r.last / r.first;
  const budgetOf = (r: GrowthRun) => (r.kind === 'paragraph' ? Math.max(2, growthOf(floor)) : 2);
  const kinds = raw.filter((r) => r !== floor && r !== quoteFloor);
  const worst = [...kinds].sort((a, b) => growthOf(b) / budgetOf(b) - growthOf(a) / budgetOf(a))[0]!;
  return {
    rows,
    budgets: [
      {
        what: 'a render near the end of a 10 KB block vs near its start, worst kind against its budget',
        value: `${worst.kind} ${growthOf(worst).toFixed(1)}× (Chromium alone, plain paragraph: ${growthOf(floor).toFixed(1)}×, the quote's text: ${growthOf(quoteFloor).toFixed(1)}×)`,
        budget: '≤ 2× (a paragraph: ≤ Chromium alone)',
        met: kinds.every((r) => growthOf(r) <= budgetOf(r)),
      },
    ],
    raw,
  };
}
