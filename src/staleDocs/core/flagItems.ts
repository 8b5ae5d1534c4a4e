import { CODE, type Found, type ItemReader, type LineView } from './itemKinds';
import { foundAt, isCommentLine, leadOf } from './literals';

// Command-line flags, as the code declares them: a string literal that starts with a flag
// (`.option('-o, --output <format>')`, argparse's `add_argument('--retention')`, `'--dlq'` anywhere
// in code), and Go's flag package (`flag.String("region", …)`: `-region`; cobra's
// `cmd.Flags().StringP("zone", …)`: `--zone`). A flag in a comment is not declared.

/** A long flag anywhere in the literal, or a short one standing alone (`-o`, `-o, --output`). */
const LONG = /(?:^|[\s,|=[])(--[A-Za-z][\w-]*)/g;
const SHORT = /^-([A-Za-z])(?=$|[\s,|])/;
const GO_STD = /\b(?:flag|fs|flags|flagSet)\.[A-Z]\w*\(\s*(?:&[\w.]+,\s*)?$/;
const GO_COBRA = /\bFlags\(\)\.[A-Z]\w*\(\s*(?:&[\w.]+,\s*)?$/;
const GO_NAME = /^[A-Za-z][\w-]*$/;

function read(line: LineView): Found[] {
  if (isCommentLine(line.text)) return [];
  const out: Found[] = [];
  for (const lit of line.literals) {
    if (line.lang === 'go' && GO_NAME.test(lit.text)) {
      const lead = leadOf(line.text, lit);
      const dash = GO_COBRA.test(lead) ? '--' : GO_STD.test(lead) ? '-' : undefined;
      if (dash) out.push({ ...foundAt(line.text, lit.text, lit.start + 1), name: `${dash}${lit.text}` });
      continue;
    }
    if (lit.text[0] !== '-') continue;
    const long = [...lit.text.matchAll(LONG)].map((m) => ({ name: m[1]!, at: m.index + m[0].length - m[1]!.length }));
    const short = SHORT.exec(lit.text);
    const flag = long[0] ?? (short ? { name: short[0], at: 0 } : undefined);
    if (!flag) continue;
    out.push(foundAt(line.text, flag.name, lit.start + 1 + flag.at));
  }
  return out;
}

export const flagItems: ItemReader = { kind: 'flag', langs: CODE, read, weights: { removed: 100, renamed: 95 } };
