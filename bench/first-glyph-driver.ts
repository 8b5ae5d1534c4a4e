import type { Frame, Page } from 'playwright-core';
import { chatViewUnsupported, openChatView, sendInChatView, startChatViewStack, waitForChatResponse } from '../test/e2e/chatView';
import type { Stack } from '../test/e2e/stack';
import { Workbench, closeBrowser } from '../test/e2e/workbench';
import { codeServerLabel, runDriver } from './driverProcess';

// The rounds of bench/first-glyph.ts, run by it in a child process under tsx: this drives
// code-server with the e2e harness (test/e2e), which the benchmarks' esbuild bundle cannot hold
// (install-code-server.mjs finds its folder with import.meta.url). What is timed here is
// code-server and the packaged extension, not this file, so it needs no production bundle.
// Prints progress on stderr and, last, one line of JSON (DriverOutput) on stdout. Alone:
//   DOCS_ASSISTANT_CODE_SERVER=4.139.1 FIRST_GLYPH_ROUNDS=2 FIRST_GLYPH_SHOT=1 node --import tsx bench/first-glyph-driver.ts
// (FIRST_GLYPH_SHOT keeps screenshots of the two surfaces in test-results/).

const QUESTION = 'How do I rotate an API key?';

export interface Sample {
  surface: 'chatView' | 'webview';
  /** 0 is the warm-up (the participant's activation, the webview's first answer): not counted. */
  round: number;
  /** The request reached the emulator (Date.now() in Node). */
  requestAt: number;
  /** The emulator wrote the first text delta (Date.now() in Node). */
  writeAt: number;
  /** Enter went down in the surface's input (Date.now() in the page). */
  sentAt: number;
  /** The answer's first word was in the DOM (Date.now() in a MutationObserver callback). */
  glyphAt: number;
  /** What the service was asked, without the marker: the same for both surfaces, or the stream differs. */
  request: string;
}

export type DriverOutput = { skipped: string } | { codeServer: string; samples: Sample[]; seconds: number };

type Probe = { sentAt?: number; glyphAt?: number };
type Win = typeof globalThis & { __firstGlyph?: Probe };

/**
 * Puts a capture-phase Enter listener and a MutationObserver into a page or frame. The observer
 * watches `root` (and below) and notes the time when an element matching `answer` holds `word`:
 * the callback runs in the microtask checkpoint of the task that changed the DOM, so its
 * Date.now() is when the text went into the DOM (not when it was painted).
 */
async function arm(target: Page | Frame, root: string, answer: string, word: string): Promise<void> {
  const armed = await target.evaluate(
    ({ root, answer, word }) => {
      const el = document.querySelector(root);
      if (!el) return false;
      const probe: Probe = {};
      (window as Win).__firstGlyph = probe;
      const onKey = (e: KeyboardEvent): void => {
        if (e.key === 'Enter' && probe.sentAt === undefined) probe.sentAt = Date.now();
      };
      window.addEventListener('keydown', onKey, true);
      const seen = (): boolean => Array.from(el.querySelectorAll(answer)).some((a) => (a.textContent ?? '').includes(word));
      const mo = new MutationObserver(() => {
        if (probe.glyphAt !== undefined || !seen()) return;
        probe.glyphAt = Date.now();
        mo.disconnect();
        window.removeEventListener('keydown', onKey, true);
      });
      mo.observe(el, { childList: true, subtree: true, characterData: true });
      return true;
    },
    { root, answer, word },
  );
  if (!armed) throw new Error(`No ${root} to watch: has the markup changed?`);
}

const readProbe = (target: Page | Frame): Promise<Probe> => target.evaluate(() => (window as Win).__firstGlyph ?? {});

/** Waits until the armed observer has seen the answer's first word (or fails with what it saw). */
async function waitForGlyph(target: Page | Frame, surface: string, timeout = 30_000): Promise<void> {
  const seen = await target
    .waitForFunction(() => (window as Win).__firstGlyph?.glyphAt !== undefined, undefined, { timeout, polling: 50 })
    .then(
      () => true,
      () => false,
    );
  if (!seen) throw new Error(`${surface}: the answer's first word never reached the DOM in ${timeout} ms (probe: ${JSON.stringify(await readProbe(target))}).`);
}

/** The question sent this round: the emulator starts its answer with `word` (`[[answer:first:…]]`). */
const ask = (word: string): string => `${QUESTION} [[answer:first:${word}]]`;

async function measure(stack: Stack, wb: Workbench, webview: Frame, surface: Sample['surface'], round: number): Promise<Sample> {
  // Letters and digits only, unique per answer, and never in the docs the answer quotes.
  const word = `Glyph${round}${surface === 'chatView' ? 'C' : 'W'}${Math.random().toString(36).slice(2, 8)}`;
  const target = surface === 'chatView' ? wb.page : webview;
  if (surface === 'chatView') {
    // The chat widget that holds the input; its responses, not the request rows that echo the question.
    await arm(wb.page, '.interactive-session', '.interactive-response .chat-markdown-part', word);
    await sendInChatView(wb, `@docs ${ask(word)}`);
    await waitForGlyph(wb.page, 'Chat view');
    await waitForChatResponse(wb);
  } else {
    await arm(webview, '#app', '.turn .answer .answer-parts', word);
    await wb.ask(webview, ask(word));
    await waitForGlyph(webview, 'webview');
    await wb.waitForAnswer(webview, 'done');
  }
  const probe = await readProbe(target);
  const rec = stack.emulator.requests.find((r) => {
    const body = r.body as { messages?: { role: string; parts: { text?: string }[] }[] } | null;
    return r.method === 'POST' && !!body?.messages?.at(-1)?.parts.some((p) => p.text?.includes(word));
  });
  if (probe.glyphAt === undefined || probe.sentAt === undefined || rec?.firstTextAt === undefined)
    throw new Error(
      `${surface}, round ${round}: no first glyph measured (Enter ${probe.sentAt ?? 'not seen'}, glyph ${probe.glyphAt ?? 'not seen'}, ` +
        `first text written ${rec ? (rec.firstTextAt ?? 'never') : '(no request carried the marker)'}).`,
    );
  const body = rec.body as {
    messages: { parts: { text?: string }[] }[];
    context?: unknown;
    filter?: unknown;
    retrievalPageSize?: unknown;
    currentPath?: unknown;
  };
  const text = body.messages
    .at(-1)!
    .parts.map((p) => p.text ?? '')
    .join('');
  const request = JSON.stringify({
    text: text.replace(word, '…'),
    context: body.context ?? [],
    filter: body.filter ?? null,
    retrievalPageSize: body.retrievalPageSize ?? null,
    currentPath: body.currentPath ?? null,
  });
  return { surface, round, requestAt: rec.at, writeAt: rec.firstTextAt, sentAt: probe.sentAt, glyphAt: probe.glyphAt, request };
}

async function main(): Promise<DriverOutput> {
  const unsupported = await chatViewUnsupported();
  if (unsupported) return { skipped: unsupported };
  const rounds = Number(process.env.FIRST_GLYPH_ROUNDS ?? 20);
  const started = Date.now();
  const log = (s: string): boolean => process.stderr.write(`  first-glyph: ${s}\n`);
  const stack = await startChatViewStack();
  // code-server runs in a process group of its own: stopped (Ctrl+C, the bench's timeout), close it too.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stack.close().finally(() => process.exit(130)));
  let wb: Workbench | undefined;
  try {
    wb = await Workbench.open(stack);
    log(`workbench up after ${((Date.now() - started) / 1000).toFixed(0)} s`);
    await openChatView(wb);
    const webview = await wb.openChat();
    if (process.env.FIRST_GLYPH_SHOT) await wb.shot('first-glyph-layout');
    const samples: Sample[] = [];
    for (let round = 0; round <= rounds; round++) {
      // Alternating which surface goes first, so neither always follows the other's answer.
      const order: Sample['surface'][] = round % 2 ? ['webview', 'chatView'] : ['chatView', 'webview'];
      for (const surface of order) samples.push(await measure(stack, wb, webview, surface, round));
      const last = samples.slice(-2).map((s) => `${s.surface} ${s.glyphAt - s.writeAt} ms`);
      log(`round ${round}${round === 0 ? ' (warm-up)' : ''}: ${last.join(', ')}`);
    }
    if (process.env.FIRST_GLYPH_SHOT) await wb.shot('first-glyph-end');
    return { codeServer: await codeServerLabel(), samples, seconds: (Date.now() - started) / 1000 };
  } finally {
    await wb?.close().catch(() => undefined);
    await closeBrowser();
    await stack.close();
  }
}

runDriver(main);
