// Markdown that made the chat freeze (issue 16, item 7): each construct hit a rule that reads
// the rest of a run, a line or a block again at every character of it, in our renderer or in
// marked. Shared by test/webview/pathological.test.ts, test/unit/marked-limits.test.ts and the
// render benchmark (bench/pathological.ts).

export interface Pathology {
  name: string;
  text: string;
}

/** One block of each kind, each about `size` characters. */
export function pathologies(size = 40_000): Pathology[] {
  return [
    { name: `a fence of ${size.toLocaleString()} blank lines`, text: '```\n' + '\n'.repeat(size) + '```' },
    { name: `a paragraph of ${size.toLocaleString()} spaces`, text: 'Spaces' + ' '.repeat(size) + 'end.' },
    { name: `a list item of ${size.toLocaleString()} spaces`, text: '- Spaces' + ' '.repeat(size) + 'end.' },
    { name: `a **a___…b** run of ${size.toLocaleString()}`, text: '**a' + '_'.repeat(size) + 'b**' },
    { name: `quotes ${(size / 2).toLocaleString()} deep`, text: '> '.repeat(size / 2) + 'deep' },
    { name: `${Math.round(size / 6).toLocaleString()} emphasis openers`, text: '*a '.repeat(Math.round(size / 6)) + 'end' },
    { name: `a run of ${Math.round(size / 4).toLocaleString()} asterisks`, text: '**a' + '*'.repeat(Math.round(size / 4)) + 'b**' },
    { name: `${Math.round(size / 3).toLocaleString()} strikethrough openers`, text: '~a '.repeat(Math.round(size / 3)) + 'end' },
    { name: `a link opening ${size.toLocaleString()} parentheses`, text: '[a](' + '('.repeat(size) },
    { name: `a URL followed by ${size.toLocaleString()} dots`, text: 'See https://docs.test/a' + '.'.repeat(size) + ' end' },
    { name: `a list item with ${Math.round(size / 2).toLocaleString()} continuation lines`, text: '- item\n' + 'b\n'.repeat(Math.round(size / 2)) },
    {
      name: `a list item with ${Math.round(size / 5).toLocaleString()} continuation lines like -x and 1x`,
      text: '- item\n' + 'b\n-x\n1x\n'.repeat(Math.round(size / 9)),
    },
    { name: `${Math.round(size / 4).toLocaleString()} code spans in one paragraph`, text: '`a` '.repeat(Math.round(size / 4)) + 'end' },
    { name: `${Math.round(size / 3).toLocaleString()} escapes in one paragraph`, text: '\\* '.repeat(Math.round(size / 3)) + 'end' },
    {
      name: `a list item with ${Math.round(size / 3).toLocaleString()} continuation lines like [a and <a`,
      text: '- item\n' + '[a\n<a\n'.repeat(Math.round(size / 6)),
    },
    { name: `${Math.round(size / 6).toLocaleString()} paragraphs between rules`, text: 'a\n***\n'.repeat(Math.round(size / 6)) + 'end' },
  ];
}

/**
 * All of them in one answer, between ordinary paragraphs: about 14.7 × `size` characters (430 KB
 * by default; 35,000 before the last two shapes joined, which kept the answer's size).
 */
export function pathologicalAnswer(size = 30_000): string {
  return ['# Pathological answer', ...pathologies(size).flatMap((p) => [`The next block is ${p.name}.`, p.text]), 'And the answer ends.'].join('\n\n') + '\n';
}

/**
 * Issue 27, item 3: an answer of about `size` characters whose tail streams reference
 * definitions, each of which changes with every delta while it arrives (`[a]: h`, `[a]: ht`, …).
 * Its first blocks name some of the labels the way marked reads them (another case, white space
 * across lines, in a quote, a list item, a table cell), one in a long list, one in many short
 * paragraphs; then come paragraphs that name none. The definitions are those labels and many more
 * that no block names, with brackets and backslashes in them, some in quotes and lists; the one
 * that so many paragraphs name has a long address.
 */
export function hostileDefinitions(size = 120_000): string {
  const naming = [
    'See [the guide][a], [b\\]], [C\n  D] and [E].',
    '> A quote names [f\n> g] across its lines.',
    '- A list item names [h\\\\i].',
    '| Cell |\n|---|\n| [j\\|k] |',
    Array.from({ length: Math.round(size / 600) }, (_, i) => `- Item ${i} of a long list that names [z].`).join('\n'),
    ...Array.from({ length: Math.round(size / 400) }, (_, i) => `Paragraph ${i} names [a] again.`),
  ];
  const prose = 'This paragraph names no definition; it only makes the answer long. '.repeat(8).trim();
  const body = [...naming];
  while (body.join('\n\n').length < size * 0.75) body.push(prose);
  // Plain definitions one a line; one in a quote or a list item is a block of its own.
  const defs = [
    `[a]: https://docs.test/${'guide/'.repeat(300)}end`,
    '[b\\]]: https://docs.test/b "B"\n[c d]: https://docs.test/cd',
    '> [f g]: https://docs.test/fg',
    '- [h\\\\i]: https://docs.test/hi',
    '[j|k]: https://docs.test/jk\n[e]: https://docs.test/e',
    `[z]: https://docs.test/${'z/'.repeat(100)}end`,
  ];
  for (let i = 0; [...body, ...defs].join('\n\n').length < size; i++) {
    defs.push(`[x\\]${i}]: https://docs.test/x/${i}\n[y\\[${i}\\\\]: https://docs.test/y/${i}`, `${i % 2 ? '>' : '-'} [w${i}]: https://docs.test/w/${i}`);
  }
  return `${[...body, ...defs].join('\n\n')}\n`;
}
