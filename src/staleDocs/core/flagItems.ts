import { NONE, CODE, type Found, type ItemReader, type LineView } from './itemKinds';
import { foundAt, leadOf } from './literals';

// Command-line flags, as the code declares them: a string literal that starts with a flag
// (`.option('-o, --output <format>')`, argparse's `add_argument('--retention')`, `'--dlq'` anywhere
// in code), and Go's flag package (`flag.String("region", …)`: `-region`; cobra's
// `cmd.Flags().StringP("zone", …)`: `--zone`). A flag in a comment is not declared.

/** A long flag anywhere in the literal, or a short one standing alone (`-o`, `-o, --output`). */
const LONG = /(?:^|[\s,|=[])(--[A-Za-z][\w-]*)/;
const SHORT = /^-([A-Za-z])(?=$|[\s,|])/;
const GO_STD = /\b(?:flag|fs|flags|flagSet)\.[A-Z]\w*\(\s*(?:&[\w.]+,\s*)?$/;
const GO_COBRA = /\bFlags\(\)\.[A-Z]\w*\(\s*(?:&[\w.]+,\s*)?$/;
/** A literal that starts with a dash, or Go's flag calls: one test rules the other lines out. */
const HINT = /['"`]-|[fF]lag|\bfs\./;
const GO_NAME = /^[A-Za-z][\w-]*$/;

function read(line: LineView): readonly Found[] {
  if (line.comment || !HINT.test(line.text)) return NONE;
  const out: Found[] = [];
  for (const lit of line.literals) {
    if (line.lang === 'go' && GO_NAME.test(lit.text)) {
      const lead = leadOf(line.text, lit);
      const dash = GO_COBRA.test(lead) ? '--' : GO_STD.test(lead) ? '-' : undefined;
      if (dash) out.push({ ...foundAt(line.text, lit.text, lit.start + 1), name: `${dash}${lit.text}` });
      continue;
    }
    if (lit.text[0] !== '-') continue;
    const long = LONG.exec(lit.text);
    const short = long ? null : SHORT.exec(lit.text);
    if (long) out.push(foundAt(line.text, long[1]!, lit.start + 1 + long.index + long[0].length - long[1]!.length));
    else if (short) out.push(foundAt(line.text, short[0], lit.start + 1));
  }
  return out;
}

export const flagItems: ItemReader = { kind: 'flag', langs: CODE, read, weights: { removed: 100, renamed: 95 } };
