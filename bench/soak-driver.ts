import { readdirSync, readFileSync } from 'node:fs';
import type { CDPSession, Frame } from 'playwright-core';
import { startStack, type Stack } from '../test/e2e/stack';
import { Workbench, closeBrowser } from '../test/e2e/workbench';
import { codeServerLabel, runDriver } from './driverProcess';

// The rounds of bench/soak.ts, run by it in a child process under tsx (as first-glyph-driver.ts,
// for the same reason): a day of questions in one code-server window. 500 questions answered in
// the extension's chat, a new conversation every 20, against the emulator; at question 0 and at
// every 50th, after a forced GC in each:
//  - the extension host's heap and its active timers and handles, through Node's inspector (the
//    host is sent SIGUSR1, which opens it on 127.0.0.1:9229; code-server has no
//    --inspect-extensions);
//  - the workbench page's heap and its DOM counters (nodes, JS event listeners), through CDP. The
//    chat's webview is a frame of the same renderer here, so these are the page's and the
//    webview's together: an upper bound on the webview's own.
// Prints progress on stderr and one line of JSON (SoakOutput) on stdout. Alone:
//   DOCS_ASSISTANT_CODE_SERVER=4.139.1 SOAK_QUESTIONS=60 node --experimental-websocket --import tsx bench/soak-driver.ts

export interface SoakPoint {
  question: number;
  hostHeapMb: number;
  /** process.getActiveResourcesInfo() of the extension host, counted by kind (Timeout, TCPWRAP, …). */
  hostResources: Record<string, number>;
  pageHeapMb: number;
  nodes: number;
  listeners: number;
  documents: number;
  /** Elements in the chat webview's own document: what of `nodes` is the chat's. */
  webviewElements: number;
  /** Wall-clock seconds since the first question. */
  seconds: number;
}

export type SoakOutput = { skipped: string } | { codeServer: string; points: SoakPoint[]; questions: number; perConversation: number; seconds: number };

const EVERY = Number(process.env.SOAK_EVERY ?? 50);
const PER_CONVERSATION = 20;
const INSPECTOR = 'http://127.0.0.1:9229';

/** A minimal CDP client over the inspector's WebSocket (Node 20: --experimental-websocket). */
class Inspector {
  private next = 1;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private constructor(private readonly ws: WebSocket) {
    ws.addEventListener('message', (e: MessageEvent) => {
      const m = JSON.parse(String(e.data)) as { id?: number; result?: unknown; error?: { message: string } };
      const w = m.id === undefined ? undefined : this.waiting.get(m.id);
      if (!w) return;
      this.waiting.delete(m.id!);
      if (m.error) w.reject(new Error(m.error.message));
      else w.resolve(m.result);
    });
  }

  static async open(url: string): Promise<Inspector> {
    const ws = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      ws.addEventListener('open', () => resolve(), { once: true });
      ws.addEventListener('error', () => reject(new Error(`cannot open ${url}`)), { once: true });
    });
    return new Inspector(ws);
  }

  send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.next++;
    this.ws.send(JSON.stringify({ id, method, params }));
    return new Promise<T>((resolve, reject) => this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject }));
  }

  close(): void {
    this.ws.close();
  }
}

/** Pids whose parent is in `parents`, transitively: the processes a code-server started. */
function descendants(root: number): number[] {
  const parentOf = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      // The comm field can hold spaces and parentheses: the ppid is the 2nd field after the last ')'.
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      parentOf.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const found = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, ppid] of parentOf) if (found.has(ppid) && !found.has(pid)) grew = found.add(pid) !== undefined;
  }
  found.delete(root);
  return [...found];
}

const cmdline = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
};

/** The extension host of the code-server that uses `userDataDir`, with its inspector opened. */
async function inspectExtensionHost(stack: Stack): Promise<Inspector> {
  const server = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map(Number)
    .find((pid) => cmdline(pid).includes(stack.userDataDir) && !cmdline(pid).includes('--type='));
  if (server === undefined) throw new Error('code-server’s process was not found');
  const host = descendants(server).find((pid) => cmdline(pid).includes('--type=extensionHost'));
  if (host === undefined) throw new Error('the extension host’s process was not found');
  process.kill(host, 'SIGUSR1');
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      const list = (await (await fetch(`${INSPECTOR}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
      if (list[0]) return await Inspector.open(list[0].webSocketDebuggerUrl);
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the extension host (pid ${host}) opened no inspector on ${INSPECTOR} within 10 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function measure(host: Inspector, page: CDPSession, frame: Frame, question: number, started: number): Promise<SoakPoint> {
  await host.send('HeapProfiler.collectGarbage');
  const { usedSize } = await host.send<{ usedSize: number }>('Runtime.getHeapUsage');
  const { result } = await host.send<{ result: { value: string } }>('Runtime.evaluate', {
    expression: 'JSON.stringify(process.getActiveResourcesInfo())',
    returnByValue: true,
  });
  const hostResources: Record<string, number> = {};
  for (const kind of JSON.parse(result.value) as string[]) hostResources[kind] = (hostResources[kind] ?? 0) + 1;
  await page.send('HeapProfiler.collectGarbage');
  const heap = await page.send('Runtime.getHeapUsage');
  const dom = await page.send('Memory.getDOMCounters');
  const webviewElements = await frame.evaluate(() => document.getElementsByTagName('*').length);
  return {
    question,
    hostHeapMb: usedSize / 1024 / 1024,
    hostResources,
    pageHeapMb: heap.usedSize / 1024 / 1024,
    nodes: dom.nodes,
    listeners: dom.jsEventListeners,
    documents: dom.documents,
    webviewElements,
    seconds: (Date.now() - started) / 1000,
  };
}

async function newConversation(wb: Workbench, frame: Frame): Promise<void> {
  await wb.command('Docs Assistant: New Conversation');
  await frame.locator('.turn').first().waitFor({ state: 'detached', timeout: 10_000 });
}

async function main(): Promise<SoakOutput> {
  const questions = Number(process.env.SOAK_QUESTIONS ?? 500);
  const log = (s: string): boolean => process.stderr.write(`  soak: ${s}\n`);
  const stack = await startStack();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stack.close().finally(() => process.exit(130)));
  let wb: Workbench | undefined;
  let host: Inspector | undefined;
  try {
    wb = await Workbench.open(stack);
    const frame = await wb.openChat();
    host = await inspectExtensionHost(stack);
    const page = await wb.page.context().newCDPSession(wb.page);
    // One answer first, so what is measured from question 0 on is the steady state, not first use.
    await wb.ask(frame, 'How do I rotate an API key?');
    await wb.waitForAnswer(frame, 'done');
    await newConversation(wb, frame);
    const started = Date.now();
    const points = [await measure(host, page, frame, 0, started)];
    log(`question 0: host ${points[0]!.hostHeapMb.toFixed(1)} MB, page ${points[0]!.pageHeapMb.toFixed(1)} MB`);
    const asks = ['How do I rotate an API key?', 'What are the rate limits?', 'How do webhooks retry?', 'Where do I set the visibility timeout?'];
    for (let q = 1; q <= questions; q++) {
      await wb.ask(frame, `${asks[q % asks.length]} (${q})`);
      await wb.waitForAnswer(frame, 'done', 60_000);
      if (q % PER_CONVERSATION === 0 && q < questions) await newConversation(wb, frame);
      if (q % EVERY === 0) {
        const p = await measure(host, page, frame, q, started);
        points.push(p);
        log(
          `question ${q}: host ${p.hostHeapMb.toFixed(1)} MB, page ${p.pageHeapMb.toFixed(1)} MB, ${p.listeners} listeners, ${p.nodes} nodes, ${p.webviewElements} in the webview (${p.seconds.toFixed(0)} s)`,
        );
      }
    }
    return {
      codeServer: await codeServerLabel(),
      points,
      questions,
      perConversation: PER_CONVERSATION,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    host?.close();
    await wb?.close().catch(() => undefined);
    await closeBrowser();
    await stack.close();
  }
}

runDriver(main);
