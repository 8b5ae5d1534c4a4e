import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { longAnswer } from './answer';
import { buildSwappedBundle, CHROMIUM_ARGS, PAGE_HOST, serveWebview } from './render';
import { buildShadow, ROOT } from './shadow';
import { median, type BenchResult } from './util';

// 9. A long conversation in the webview (issue 33): 300 turns, about 1.5 MB of answers, opened in
// the real page (production bundle, page CSP, Debian's Chromium, a side bar's size), then scrolled
// back to its first question three screens a frame (a reader dragging the scroll bar). Side by side in one run: the shipped page, which
// draws the answers near the view (src/webview/lazyTurns.ts), and the same bundle with every
// answer drawn at once, as it was before. The snapshot reaches the page as VS Code hands it over
// (a structured clone, timed with the rest). Long tasks are Chromium's own (PerformanceObserver
// `longtask`: every task over 50 ms).

const TURNS = 300;
const ANSWER_CHARS = 5_000;
const RUNS = Number(process.env.CONVERSATION_RUNS ?? 3);
const VIEW = { width: 420, height: 800 };

/** Every answer drawn when the conversation opens: lazyTurns.ts with nothing left for later. */
const EAGER = `export { LazyTurns } from ${JSON.stringify(join(ROOT, 'src', 'webview', 'lazyTurns.ts'))}; export const firstDrawnAtOnce = () => 0;`;

function conversation() {
  // The long answer's first blocks, cut at a paragraph: about 5 KB of headings, prose, lists and code.
  const long = longAnswer(40_000);
  const text = long.slice(0, long.indexOf('\n\n', ANSWER_CHARS));
  const turns = Array.from({ length: TURNS }, (_, i) => ({
    id: `t${i}`,
    question: `Question ${i}: how do I configure the relay?`,
    context: [],
    answer: { parts: [{ kind: 'text', text: `## Answer ${i}\n\n${text}` }], sources: [], notices: [], status: 'done', jobs: [] },
  }));
  return { conversationId: 'long', title: 'Long', turns, pendingContext: [], draft: '', busy: false, inputHistory: [], agentAvailable: true };
}

interface Run {
  firstScreenMs: number;
  openLongTasks: number[];
  openElements: number;
  scrollLongTasks: number[];
  scrollElements: number;
  answersDrawnAtOpen: number;
}

async function measure(page: Page, snapshot: ReturnType<typeof conversation>): Promise<Run> {
  return page.evaluate(async (s) => {
    const frame = () => new Promise<void>((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    const w = window as unknown as { __long: number[] };
    w.__long = [];
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) w.__long.push(Math.round(e.duration));
    }).observe({ type: 'longtask' });
    // Back to an empty chat, so that every run opens the conversation afresh.
    const notify = (payload: unknown) => window.dispatchEvent(new MessageEvent('message', { data: { kind: 'notify', name: 'snapshot', payload } }));
    notify({ ...s, conversationId: 'empty', turns: [] });
    await frame();
    await new Promise((r) => setTimeout(r, 100));
    w.__long = [];
    const t0 = performance.now();
    notify(structuredClone(s));
    await frame();
    const firstScreenMs = performance.now() - t0;
    const openElements = document.getElementsByTagName('*').length;
    const answersDrawnAtOpen = document.querySelectorAll('.turn .answer:not(.answer-waiting)').length;
    await new Promise((r) => setTimeout(r, 300));
    const openLongTasks = w.__long;
    w.__long = [];
    const transcript = document.querySelector<HTMLElement>('.transcript')!;
    while (transcript.scrollTop > 0) {
      transcript.scrollTop = Math.max(0, transcript.scrollTop - 3 * transcript.clientHeight);
      await frame();
    }
    await new Promise((r) => setTimeout(r, 500));
    return {
      firstScreenMs,
      openLongTasks,
      openElements,
      answersDrawnAtOpen,
      scrollLongTasks: w.__long,
      scrollElements: document.getElementsByTagName('*').length,
    };
  }, snapshot);
}

export async function benchConversation(): Promise<BenchResult> {
  const shadow = buildShadow();
  const { origin, close } = await serveWebview(shadow.dist, { eager: await buildSwappedBundle(EAGER, 'lazyTurns') });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const snapshot = conversation();
  const runs: Record<'lazy' | 'eager', Run[]> = { lazy: [], eager: [] };
  try {
    for (const [kind, bundle] of [
      ['lazy', 'incremental'],
      ['eager', 'eager'],
    ] as const) {
      const page = await browser.newPage({ viewport: VIEW });
      page.on('crash', () => process.stderr.write(`the ${kind} page crashed\n`));
      page.on('pageerror', (e) => process.stderr.write(`the ${kind} page: ${e.message}\n`));
      process.stderr.write(`conversation: ${kind}\n`);
      await page.addInitScript({ content: PAGE_HOST });
      await page.goto(`${origin}/?bundle=${bundle}`);
      await page.waitForSelector('#app[aria-busy="false"]');
      await measure(page, snapshot); // warm-up
      for (let i = 0; i < RUNS; i++) runs[kind].push(await measure(page, snapshot));
      await page.close();
    }
  } finally {
    await browser.close();
    close();
    shadow.dispose();
  }
  const med = (kind: 'lazy' | 'eager', f: (r: Run) => number) => median(runs[kind].map(f));
  const longest = (xs: number[]) => (xs.length ? Math.max(...xs) : 0);
  const tasks = (kind: 'lazy' | 'eager', f: (r: Run) => number[]) => {
    const all = runs[kind].map(f);
    return `${all.reduce((n, x) => n + x.length, 0)} over 50 ms in ${RUNS} runs, longest ${longest(all.flat())} ms`;
  };
  const first = { lazy: med('lazy', (r) => r.firstScreenMs), eager: med('eager', (r) => r.firstScreenMs) };
  const lazyLongest = longest(runs.lazy.flatMap((r) => [...r.openLongTasks, ...r.scrollLongTasks]));
  const mb = (JSON.stringify(snapshot).length / 1024 / 1024).toFixed(2);
  return {
    name: `Long conversation: ${TURNS} turns (${mb} MB of answers) opened and scrolled back to the top, drawn near the view vs all at once`,
    rows: [
      ['page', `production bundle, page CSP, Chromium, ${VIEW.width}×${VIEW.height}; median of ${RUNS} runs after a warm-up`],
      [
        'first screen (snapshot → frame)',
        `${Math.round(first.lazy)} ms drawn near the view vs ${Math.round(first.eager)} ms all at once (${(first.eager / first.lazy).toFixed(1)}×)`,
      ],
      ['answers drawn at open', `${med('lazy', (r) => r.answersDrawnAtOpen)} vs ${med('eager', (r) => r.answersDrawnAtOpen)}`],
      ['DOM elements at open', `${med('lazy', (r) => r.openElements)} vs ${med('eager', (r) => r.openElements)}`],
      ['long tasks while opening', `${tasks('lazy', (r) => r.openLongTasks)} vs ${tasks('eager', (r) => r.openLongTasks)}`],
      ['long tasks scrolling back, three screens a frame', `${tasks('lazy', (r) => r.scrollLongTasks)} vs ${tasks('eager', (r) => r.scrollLongTasks)}`],
      ['DOM elements at the top', `${med('lazy', (r) => r.scrollElements)} vs ${med('eager', (r) => r.scrollElements)}`],
    ],
    budgets: [
      { what: 'first screen of a 300-turn conversation', value: `${Math.round(first.lazy)} ms`, budget: '≤ 200 ms', met: first.lazy <= 200 },
      { what: 'longest task opening it and scrolling back', value: `${lazyLongest || 'none over 50'} ms`, budget: '≤ 50 ms', met: lazyLongest <= 50 },
    ],
    raw: { turns: TURNS, answerChars: ANSWER_CHARS, runs },
  };
}
