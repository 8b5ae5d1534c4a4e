import { NONE, CODE, type Forms, type Found, type ItemReader, type LineView } from './itemKinds';
import type { ChangeHow } from './staleDocs';
import { leadOf } from './literals';

// Error messages readers meet and paste into a search: the literal in `throw new Error('…')` (or
// any `new XError('…')`), Python's `raise XError('…')`, Go's `errors.New("…")` and
// `fmt.Errorf("…")`. A message changed in place is `message`; one that is gone, `removed`. What a
// docs line contains is the message's fixed words, between its placeholders.

const LEADS = [/\bnew\s+\w*(?:Error|Exception)\(\s*$/, /\braise\s+\w+\(\s*$/, /\berrors\.New\(\s*$/, /\bfmt\.Errorf\(\s*$/];
/** `${…}`, `%s`/`%v`/`%d`…, `{name}`: what the program fills in. */
const PLACEHOLDER = /\$\{[^}]*\}|%[-+ #0]?\d*(?:\.\d+)?[a-zA-Z]|\{[^}]*\}/g;
/** Most lines raise nothing: one test rules them out before their literals are read. */
const HINT = /Error|Exception|raise|errors\.New/;
const MAX_MESSAGE_CHARS = 300;
const MAX_NEEDLES = 3;

/** The message's fixed words, longest first, at most three; the whole message when it has no placeholder. */
export function messageNeedles(message: string): string[] {
  const pieces = message
    .split(PLACEHOLDER)
    .map((p) => p.trim())
    .filter((p) => p.length >= 4);
  if (pieces.length <= 1) return [pieces[0] ?? message];
  return pieces.sort((a, b) => b.length - a.length).slice(0, MAX_NEEDLES);
}

function read(line: LineView): readonly Found[] {
  if (line.comment || !HINT.test(line.text)) return NONE;
  const out: Found[] = [];
  for (const lit of line.literals) {
    const message = lit.text.trim().slice(0, MAX_MESSAGE_CHARS);
    if (message.length < 3 || !/[A-Za-z]/.test(message)) continue;
    const lead = leadOf(line.text, lit);
    if (LEADS.some((re) => re.test(lead))) out.push({ name: message });
  }
  return out;
}

function describe(how: ChangeHow, old: Found, added?: Found): Forms {
  const stale = messageNeedles(old.name);
  if (how === 'removed' || !added) return { oldForm: old.name, staleNeedles: stale, updatedNeedles: [] };
  return { oldForm: old.name, newForm: added.name, staleNeedles: stale, updatedNeedles: messageNeedles(added.name) };
}

export const errorItems: ItemReader = { kind: 'errorMessage', langs: CODE, pairedHow: 'message', read, describe, weights: { removed: 40, message: 35 } };
