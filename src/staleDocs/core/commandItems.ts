import { NONE, CODE, type Found, type ItemReader, type LineView } from './itemKinds';
import { foundAt, leadOf } from './literals';

// Sub-commands: commander's and yargs' `.command('send <queue>')`, argparse's
// `add_parser('purge')`, click's `@cli.command('purge')`, cobra's `Use: "purge [queue]"`. The name
// is the literal's first word.

const LEADS = [/\.command\(\s*$/, /\badd_parser\(\s*$/, /\bUse:\s*$/];
/** Most lines name none of the calls: one test rules them out before their literals are read. */
const HINT = /command\(|add_parser\(|Use:/;
const NAME = /^[A-Za-z][\w:-]*/;

function read(line: LineView): readonly Found[] {
  if (line.comment || !HINT.test(line.text)) return NONE;
  const out: Found[] = [];
  for (const lit of line.literals) {
    const lead = leadOf(line.text, lit);
    if (!LEADS.some((re) => re.test(lead))) continue;
    const name = NAME.exec(lit.text)?.[0];
    if (name) out.push(foundAt(line.text, name, lit.start + 1));
  }
  return out;
}

export const commandItems: ItemReader = { kind: 'command', langs: CODE, read, weights: { removed: 90, renamed: 88 } };
