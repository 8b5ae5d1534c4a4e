import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './shadow';

// Issue 34: a special case of the streaming renderer stays only if the bench shows that it moves a
// budget by more than the noise. `BENCH_WITHOUT=<case> npm run bench -- render pathological` builds
// the webview bundle once more without that case (one module of src/webview swapped for a stand-in
// that never takes it, or the renderer's own source with the case switched off) and runs it beside
// the shipped one: the render bench in turn with it and the floors, the hostile answers in its stead.

const source = (file: string) => readFileSync(join(ROOT, 'src', 'webview', file), 'utf8');

/** Each case: the module swapped, and its stand-in's source. */
const CASES: Record<string, { module: string; source: () => string }> = {
  // Plain words straight into the open text node, code lines into the last chunk.
  plainAppend: { module: 'plainAppend', source: () => 'export const fastPathAfterRender = () => undefined; export const tryFastAppend = () => false;' },
  // Only its code half: code lines go through a render too.
  plainCode: {
    module: 'plainAppend',
    source: () => switchOff(source('plainAppend.ts'), 'const content = openFenceContent(rest);', 'const content = -1;'),
  },
  // A list's or table's unchanged items keep their tokens and DOM.
  keptItems: {
    module: 'keptItems',
    source: () =>
      'export class KeptItems { plan() { return undefined; } reuse() { return new Set(); } lexGrown() { return undefined; } rendered() {} appended() {} }',
  },
  // Only the lex of a growing list or table from its last item on: the whole tail is lexed at each render.
  lexGrown: {
    module: 'keptItems',
    source: () => switchOff(source('keptItems.ts'), 'const grown = shown && grownFrom(shown);', 'const grown = undefined;'),
  },
  // A paragraph's settled prefix is neither lexed nor built again.
  settledParagraph: { module: 'settledParagraph', source: () => 'export const settledOf = () => undefined; export const lexAfterSettled = () => false;' },
  // Only the line break beside a settled element: a line that starts with one ends the settled part.
  lineBreak: {
    module: 'inlinePrefix',
    source: () =>
      switchOff(
        switchOff(source('inlinePrefix.ts'), "const OPENS = ' (\\n';", "const OPENS = ' (';"),
        "const CLOSES = ' .,;:?)\\n';",
        "const CLOSES = ' .,;:?)';",
      ),
  },
  // DOM from tokens: without it, every piece takes marked's HTML and the sanitizer.
  tokenDom: { module: 'tokenDom', source: () => 'export const buildBlocks = () => undefined; export const buildInline = () => undefined;' },
  // Finished blocks in groups of 16: without it, all in one group.
  groups: { module: 'incremental', source: () => switchOff(source('incremental.ts'), 'const GROUP_SIZE = 16;', 'const GROUP_SIZE = Infinity;') },
};

function switchOff(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`BENCH_WITHOUT: "${from}" is no longer in the source`);
  return text.replace(from, to);
}

/** The case BENCH_WITHOUT names and its bundle, or undefined when it names none. */
export async function withoutBundle(build: (source: string, module: string) => Promise<string>): Promise<{ name: string; script: string } | undefined> {
  const name = process.env.BENCH_WITHOUT;
  if (!name) return undefined;
  const c = CASES[name];
  if (!c) throw new Error(`BENCH_WITHOUT=${name}: not one of ${Object.keys(CASES).join(', ')}`);
  return { name, script: await build(c.source(), c.module) };
}
