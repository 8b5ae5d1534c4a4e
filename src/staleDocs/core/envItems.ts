import { NONE, defaultChanged, renamedOrRemoved, type Found, type ItemReader, type LineView } from './itemKinds';
import { foundAt, leadOf } from './literals';
import { publicValue } from './secretValues';

// Environment variables: read in code (`process.env.X`, `process.env['X']`, `os.environ['X']`,
// `os.environ.get('X')`, `os.getenv('X')`, Go's `os.Getenv("X")`) or set in a `.env` file
// (`X=value`, whose value is its default: a new value is a `default` change, the same value under
// another name in the hunk a rename).

const MEMBER = /\b(?:process\.env|import\.meta\.env)\.([A-Za-z_][A-Za-z0-9_]*)/g;
const LEADS = [/\bprocess\.env\[\s*$/, /\bos\.environ\[\s*$/, /\bos\.environ\.get\(\s*$/, /\bos\.getenv\(\s*$/, /\bos\.(?:Getenv|LookupEnv)\(\s*$/];
/** Most lines of code read no variable: one test rules them out before their literals are read. */
const HINT = /env|Getenv|LookupEnv/;
/** Real lines read a variable or two; a hostile one could hold a hundred. */
const MAX_READS_PER_LINE = 8;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ASSIGNMENT = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=(.*)$/;

/** A .env value without its quotes or a trailing comment. */
export function envValue(raw: string): string {
  const text = raw.trim();
  const q = text[0];
  if ((q === '"' || q === "'") && text.indexOf(q, 1) > 0) return text.slice(1, text.indexOf(q, 1));
  const hash = text.indexOf(' #');
  return (hash >= 0 ? text.slice(0, hash) : text).trim().slice(0, 200);
}

function read(line: LineView): readonly Found[] {
  if (line.comment || (line.lang !== 'env' && !HINT.test(line.text))) return NONE;
  if (line.lang === 'env') {
    const m = ASSIGNMENT.exec(line.text);
    if (!m) return NONE;
    // A secret's value is never an item's: not searched for, not shown (secretValues.ts).
    const value = publicValue(m[1]!, envValue(m[2]!));
    return [{ name: m[1]!, detail: value, pairKey: value ? `=${value}` : undefined }];
  }
  const out: Found[] = [];
  for (const m of line.text.matchAll(MEMBER)) {
    out.push(foundAt(line.text, m[1]!, m.index + m[0].length - m[1]!.length));
    // Each find hashes its line: a bound per line keeps a line of nothing but reads linear.
    if (out.length >= MAX_READS_PER_LINE) break;
  }
  for (const lit of line.literals) {
    if (!NAME.test(lit.text)) continue;
    const lead = leadOf(line.text, lit);
    if (LEADS.some((re) => re.test(lead))) out.push(foundAt(line.text, lit.text, lit.start + 1));
  }
  return out;
}

export const envItems: ItemReader = {
  kind: 'envVar',
  langs: ['js', 'py', 'go', 'env'],
  detailHow: 'default',
  read,
  describe: (how, old, added) =>
    how === 'default' && added ? defaultChanged(old, added, (f) => `${f.name}=${f.detail ?? ''}`) : renamedOrRemoved(how, old, added),
  weights: { removed: 90, renamed: 90, default: 75 },
};
