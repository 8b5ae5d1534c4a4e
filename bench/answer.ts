import { seeded } from './util';

// A long documentation answer, the kind the render benchmark streams: headings, paragraphs with
// inline markup, bulleted and numbered lists, ten fenced code blocks and a table, about 40 KB.

const WORDS = [
  'relay',
  'the',
  'timeout',
  'connection',
  'is',
  'retried',
  'when',
  'a',
  'request',
  'fails',
  'with',
  'configure',
  'default',
  'value',
  'of',
  'each',
  'message',
  'queue',
  'and',
  'delivery',
];

export function longAnswer(targetBytes = 40_000): string {
  const rnd = seeded(3);
  const word = () => WORDS[Math.floor(rnd() * WORDS.length)]!;
  const sentence = (n: number) => {
    const ws = Array.from({ length: n }, word);
    const i = Math.floor(rnd() * ws.length);
    ws[i] = rnd() < 0.5 ? `**${ws[i]}**` : `\`${ws[i]}\``;
    const s = ws.join(' ');
    return `${s[0]!.toUpperCase()}${s.slice(1)}.`;
  };
  const paragraph = () => Array.from({ length: 3 + Math.floor(rnd() * 4) }, () => sentence(8 + Math.floor(rnd() * 10))).join(' ');
  const code = (i: number) => {
    const lines = [`// Example ${i + 1}: configure the relay`, `import { Relay } from '@acme/relay';`, ''];
    for (let l = 0; l < 12; l++) lines.push(`const option${l} = relay.configure({ ${word()}: ${Math.floor(rnd() * 1000)}, retries: ${l % 5} });`);
    return ['```ts', ...lines, '```'].join('\n');
  };
  const table = () => {
    const rows = ['| Setting | Default | Meaning |', '|---|---|---|'];
    for (let r = 0; r < 20; r++) rows.push(`| \`relay.${word()}${r}\` | ${Math.floor(rnd() * 100)} | ${sentence(6)} |`);
    return rows.join('\n');
  };
  const blocks: string[] = ['# Configuring the relay', paragraph()];
  let codeBlocks = 0;
  let section = 0;
  while (blocks.join('\n\n').length < targetBytes - 2500 || codeBlocks < 10) {
    section++;
    blocks.push(`## ${section}. ${sentence(4).slice(0, -1)}`, paragraph());
    if (section % 2 === 0) blocks.push(Array.from({ length: 5 }, () => `- ${sentence(7)}`).join('\n'));
    else blocks.push(Array.from({ length: 4 }, (_, i) => `${i + 1}. ${sentence(9)}`).join('\n'));
    if (codeBlocks < 10) blocks.push(code(codeBlocks++));
    blocks.push(paragraph());
    if (section === 4) blocks.push(table());
  }
  return blocks.join('\n\n') + '\n';
}

/** The text cut into `n` deltas of varying size, as a model streams it (cuts fall anywhere). */
export function deltasOf(text: string, n: number): string[] {
  const rnd = seeded(5);
  const cuts = new Set<number>();
  while (cuts.size < n - 1) cuts.add(1 + Math.floor(rnd() * (text.length - 1)));
  const sorted = [...cuts].sort((a, b) => a - b);
  const out: string[] = [];
  let at = 0;
  for (const c of [...sorted, text.length]) {
    out.push(text.slice(at, c));
    at = c;
  }
  return out;
}
