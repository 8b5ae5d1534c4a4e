import { NONE, defaultChanged, renamedOrRemoved, type Found, type ItemReader, type LineView } from './itemKinds';
import { publicValue } from './secretValues';

// Configuration keys and their defaults, in JSON (`"key": value`), YAML (`key: value`) and TOML
// (`key = value`) files. A key whose value changed is a `default` change; the same value under
// another key in the same hunk, a rename; a key that is gone, removed. A key that opens a section
// (no value on its line) is a key without a default. Nested keys are named by their last part.

const JSON_KEY = /^\s*"((?:[^"\\]|\\.){1,200})"\s*:(.*)$/;
const YAML_KEY = /^\s*(?:-\s+)?([A-Za-z_][\w.-]*)\s*:(?:\s(.*))?$/;
const TOML_KEY = /^\s*([A-Za-z_][\w.-]*)\s*=(.*)$/;
const MAX_VALUE_CHARS = 200;

/** A scalar value as a reader would write it: no quotes, no trailing comma or comment; undefined for a section. */
export function scalarValue(raw: string | undefined, lang: LineView['lang']): string | undefined {
  let text = (raw ?? '').trim();
  if (lang === 'json' && text.endsWith(',')) text = text.slice(0, -1).trimEnd();
  const q = text[0];
  if (q === '"' || q === "'") {
    const close = text.indexOf(q, 1);
    return close > 0 ? text.slice(1, close).slice(0, MAX_VALUE_CHARS) : undefined;
  }
  if (lang !== 'json') {
    const hash = text.indexOf(' #');
    if (hash >= 0) text = text.slice(0, hash).trimEnd();
  }
  if (!text || text === '{' || text === '[' || text === '|' || text === '>' || text.startsWith('&')) return undefined;
  return text.slice(0, MAX_VALUE_CHARS);
}

function read(line: LineView): readonly Found[] {
  const text = line.text;
  if (/^\s*(?:#|\/\/)/.test(text)) return NONE;
  const m = line.lang === 'json' ? JSON_KEY.exec(text) : line.lang === 'yaml' ? YAML_KEY.exec(text) : TOML_KEY.exec(text);
  if (!m) return NONE;
  // A secret's value is never an item's: not searched for, not shown (secretValues.ts).
  const raw = scalarValue(m[2], line.lang);
  const value = raw === undefined ? undefined : publicValue(m[1]!, raw);
  return [{ name: m[1]!, detail: value, pairKey: value }];
}

const form = (f: Found): string => (f.detail === undefined ? f.name : `${f.name}: ${f.detail}`);

export const configItems: ItemReader = {
  kind: 'configKey',
  langs: ['json', 'yaml', 'toml'],
  detailHow: 'default',
  read,
  describe: (how, old, added) => (how === 'default' && added ? defaultChanged(old, added, form) : renamedOrRemoved(how, old, added, form)),
  weights: { removed: 85, renamed: 85, default: 80 },
};
