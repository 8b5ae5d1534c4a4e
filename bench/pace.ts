import type { Page } from 'playwright-core';
import { deltasOf, longAnswer } from './answer';
import { benchSnapshot, benchTurn } from './snapshot';
import { percentile, type Budget } from './util';

// Part of the render benchmark (issue 21): how smoothly the answer appears at four paces, in the
// same production bundle and page, on the benchmark's 60 Hz frame clock (PAGE_SETUP in
// render.ts). Each delta arrives at its own time between frames; a MutationObserver on the
// answer, read after each frame's layout, says which frames changed what is on screen. From that:
// renders per second while text arrives, the longest time between two renders with text waiting,
// and the lag of each delta from reaching the webview to the end of the frame that shows it.
// Then the first glyph with the browser's own frames (no driven clock): from the first delta's
// message to the first frame that holds its word, in frames and in ms.

const FRAME = 1000 / 60;

interface Pace {
  name: string;
  /** Characters of the answer streamed. */
  chars: number;
  deltas: number;
  /** When delta `i` reaches the webview, in ms from the start; deltas with the same time come in one message. */
  at(i: number): number;
}

/** slow 50 characters a second (a delta every 80 ms); steady 300, fast 1,200 (a delta a frame, as the cost runs); burst: 10 deltas in one message every 50 ms. */
const PACES: Pace[] = [
  { name: 'slow (50 chars/s, a delta every 80 ms)', chars: 4_000, deltas: 1_000, at: (i) => i * 80 },
  { name: 'steady (300 chars/s, a delta a frame)', chars: 8_000, deltas: 1_600, at: (i) => 5 + i * FRAME },
  { name: 'fast (1,200 chars/s, a delta a frame)', chars: 16_000, deltas: 800, at: (i) => 5 + i * FRAME },
  { name: 'burst (4,000 chars/s, 10 deltas a message every 50 ms)', chars: 16_000, deltas: 800, at: (i) => Math.floor(i / 10) * 50 },
];

export interface PaceRun {
  name: string;
  rendersPerSecond: number;
  maxGapMs: number;
  p95LagMs: number;
  maxLagMs: number;
  firstLagMs: number;
}

async function streamAt(page: Page, pace: Pace, id: string): Promise<PaceRun> {
  const text = longAnswer(pace.chars + 3_000).slice(0, pace.chars);
  const deltas = deltasOf(text, pace.deltas);
  const arrivals = deltas.map((_, i) => pace.at(i));
  const r = await page.evaluate(
    ([deltas, arrivals, snapshot]) => {
      const w = window as unknown as { __frame(): void; __time: number };
      const notify = (name: string, payload: unknown) => window.dispatchEvent(new MessageEvent('message', { data: { kind: 'notify', name, payload } }));
      notify('snapshot', snapshot);
      w.__frame();
      const observer = new MutationObserver(() => undefined);
      observer.observe(document.querySelector('.answer .markdown')!, { subtree: true, childList: true, characterData: true });
      const start = w.__time;
      const renders: number[] = [];
      /** For each render, when the first delta it shows arrived. */
      const waitedFrom: number[] = [];
      const lags: number[] = [];
      let waiting: number[] = [];
      let i = 0;
      while (i < deltas.length || waiting.length) {
        const frameTime = w.__time + 1000 / 60;
        // Everything that arrives before the frame, one message per arrival time.
        while (i < deltas.length && start + arrivals[i]! <= frameTime) {
          const at = arrivals[i]!;
          const patches = [];
          for (; i < deltas.length && arrivals[i] === at; i++) patches.push({ op: 'appendText', part: 0, text: deltas[i]! });
          notify('patch', { turnId: 't1', patches });
          // Markup alone (`**`, `- `) or spaces show nothing until the text after them: only deltas with a letter or digit wait to be seen.
          if (patches.some((p) => /[\p{L}\p{N}]/u.test(p.text))) waiting.push(start + at);
        }
        w.__frame();
        void document.body.offsetHeight;
        if (observer.takeRecords().length) {
          renders.push(w.__time);
          waitedFrom.push(waiting[0] ?? w.__time);
          for (const t of waiting) lags.push(w.__time - t);
          waiting = [];
        }
        if (w.__time - start > arrivals.at(-1)! + 5_000) throw new Error('text left unrendered 5 s after the last delta');
      }
      observer.disconnect();
      // How long the screen stood still while text was waiting: from the later of the last render
      // and the arrival of the first delta the next render shows, to that render.
      let maxGap = 0;
      for (let k = 0; k < renders.length; k++) maxGap = Math.max(maxGap, renders[k]! - Math.max(renders[k - 1] ?? -Infinity, waitedFrom[k]!));
      return { renders, lags, maxGap };
    },
    [deltas, arrivals, benchSnapshot(`pace-${id}`, benchTurn('', 'streaming'), true)] as const,
  );
  return {
    name: pace.name,
    rendersPerSecond: (r.renders.length - 1) / ((r.renders.at(-1)! - r.renders[0]!) / 1000),
    maxGapMs: r.maxGap,
    p95LagMs: percentile(r.lags, 95),
    maxLagMs: Math.max(...r.lags),
    firstLagMs: r.lags[0]!,
  };
}

/**
 * The first glyph on the browser's own frame clock, `rounds` times: a streaming turn with no
 * text, then its first delta; the frames the browser runs after the message are counted until
 * one holds the delta's word (a requestAnimationFrame callback queued after the message runs
 * after the renderer's own in the same frame).
 */
export async function firstGlyph(page: Page, rounds: number): Promise<{ frames: number[]; ms: number[] }> {
  const frames: number[] = [];
  const ms: number[] = [];
  for (let k = 0; k < rounds; k++) {
    const r = await page.evaluate(
      async ([k, snapshot]) => {
        const notify = (name: string, payload: unknown) => window.dispatchEvent(new MessageEvent('message', { data: { kind: 'notify', name, payload } }));
        notify('snapshot', snapshot);
        const frame = () => new Promise<number>((r) => requestAnimationFrame(r));
        await frame();
        await frame();
        // The message comes at some point between frames, as a host's would.
        await new Promise((r) => setTimeout(r, (k * 7) % 16));
        const t0 = performance.now();
        notify('patch', { turnId: 't1', patches: [{ op: 'appendText', part: 0, text: 'Configuring the' }] });
        const md = document.querySelector('.answer .markdown')!;
        for (let n = 1; n <= 60; n++) {
          await frame();
          if (md.textContent!.includes('Configuring')) return { frames: n, ms: performance.now() - t0 };
        }
        return { frames: Infinity, ms: Infinity };
      },
      [k, benchSnapshot(`glyph-${k}`, benchTurn('', 'streaming'), true)] as const,
    );
    frames.push(r.frames);
    ms.push(r.ms);
  }
  return { frames, ms };
}

export async function benchPace(page: Page): Promise<PaceRun[]> {
  const runs: PaceRun[] = [];
  for (const [k, pace] of PACES.entries()) runs.push(await streamAt(page, pace, String(k)));
  return runs;
}

export function paceRowsAndBudgets(runs: PaceRun[]): { rows: [string, string][]; budgets: Budget[] } {
  const ms = (n: number) => `${n.toFixed(0)} ms`;
  const rows = runs.map((r): [string, string] => [
    `  ${r.name}`,
    `${r.rendersPerSecond.toFixed(1)} renders/s; longest wait for a render ${ms(r.maxGapMs)}; lag p95 ${ms(r.p95LagMs)}, max ${ms(r.maxLagMs)}; first delta ${ms(r.firstLagMs)}`,
  ]);
  const slowest = Math.min(...runs.map((r) => r.rendersPerSecond));
  const gap = Math.max(...runs.map((r) => r.maxGapMs));
  const lag = Math.max(...runs.map((r) => r.p95LagMs));
  return {
    rows: [['pace: renders while text arrives (60 Hz frame clock)', 'delta reaching the webview → end of the frame that shows it'], ...rows],
    budgets: [
      // The frame clock adds 1000/60 ms a frame, so a render every sixth frame comes out at 9.99999999999 a second.
      { what: 'renders per second, slowest pace', value: slowest.toFixed(1), budget: '≥ 10 at every pace', met: slowest >= 10 - 1e-6 },
      { what: 'longest the screen stood still with text waiting', value: ms(gap), budget: '≤ 150 ms', met: gap <= 150 },
      { what: 'lag delta → on screen, p95 (worst pace)', value: ms(lag), budget: '≤ 100 ms', met: lag <= 100 },
    ],
  };
}
