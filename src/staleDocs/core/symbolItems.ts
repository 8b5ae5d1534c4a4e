import { NONE, CODE, renamedOrRemoved, type Forms, type Found, type ItemReader, type LineView } from './itemKinds';
import type { ChangeHow } from './staleDocs';
import { foundAt } from './literals';

// Exported and public symbols, by the line that declares them: TypeScript/JavaScript
// `export function/const/class/interface/type/enum`, Python's top-level `def`/`class` whose name
// has no leading `_`, Go's exported (capitalised) `func`, method, `type`, `var` and `const`. A
// function's parameter list, when it is on the line, is its detail: a new one is a new signature.

const JS = /^export\s+(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\*?|const|let|var|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/;
const JS_ARROW = /^\s*(?::[^=]*)?=\s*(?:async\s+)?(?=\()/;
const PY = /^(?:async\s+)?(?:def|class)\s+([A-Za-z]\w*)/;
const GO = /^(?:func\s+(?:\([^)]*\)\s*)?|type\s+|var\s+|const\s+)([A-Z]\w*)/;
const PARAM_NAME = /^(?:\.\.\.|\*{1,2})?([A-Za-z_$][\w$]*)/;
/** The longest parameter list read. */
const MAX_PARAMS_CHARS = 300;

/** The parameter list that opens at `open` (a `(`), white space collapsed; undefined when it does not close on the line. */
function paramsAt(text: string, open: number): string | undefined {
  let depth = 0;
  for (let i = open; i < text.length && i - open <= MAX_PARAMS_CHARS; i++) {
    const c = text[i];
    if (c === '(' || c === '[' || c === '{' || c === '<') depth += 1;
    else if ((c === ')' || c === ']' || c === '}' || (c === '>' && text[i - 1] !== '=')) && --depth === 0) {
      return c === ')'
        ? text
            .slice(open + 1, i)
            .replace(/\s+/g, ' ')
            .replace(/,\s*$/, '')
            .trim()
        : undefined;
    }
  }
  return undefined;
}

/** Where the declared name's parameter list opens, past type parameters (`f<T>(`, Go's `F[T any](`). */
function paramsOf(text: string, afterName: number, lang: LineView['lang']): string | undefined {
  let at = afterName;
  if (text[at] === '<' || (lang === 'go' && text[at] === '[')) {
    const close = text.indexOf(text[at] === '<' ? '>' : ']', at);
    if (close < 0) return undefined;
    at = close + 1;
  }
  if (lang === 'js' && text[at] !== '(') {
    const arrow = JS_ARROW.exec(text.slice(at, at + MAX_PARAMS_CHARS));
    if (!arrow) return undefined;
    at += arrow[0].length;
  }
  return text[at] === '(' ? paramsAt(text, at) : undefined;
}

function read(line: LineView): readonly Found[] {
  const re = line.lang === 'js' ? JS : line.lang === 'py' ? PY : GO;
  const m = re.exec(line.text);
  if (!m) return NONE;
  const name = m[1]!;
  if (line.lang === 'py' && name.startsWith('_')) return NONE;
  const end = m.index + m[0].length;
  const detail = paramsOf(line.text, end, line.lang);
  return [{ ...foundAt(line.text, name, end - name.length), detail }];
}

/** The parameters' names: `queue: string, body = 1, ...rest` → queue, body, rest (Go's `a, b string` → a, b). */
export function paramNames(params: string): string[] {
  const names: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i <= params.length; i++) {
    const c = params.charCodeAt(i);
    if (c === 40 || c === 91 || c === 123 || c === 60)
      depth += 1; // ( [ { <
    else if (c === 41 || c === 93 || c === 125 || c === 62)
      depth -= 1; // ) ] } >
    else if ((c === 44 && depth === 0) || i === params.length) {
      // , at the top level, or the end: one parameter.
      const name = PARAM_NAME.exec(params.slice(from, i).trim())?.[1];
      if (name && name !== 'self' && name !== 'cls') names.push(name);
      from = i + 1;
    }
  }
  return names;
}

function signature(old: Found, added: Found): Forms {
  const before = paramNames(old.detail ?? '');
  const after = paramNames(added.detail ?? '');
  const gone = before.find((p) => !after.includes(p));
  const fresh = after.find((p) => !before.includes(p));
  return {
    oldForm: `${old.name}(${old.detail ?? ''})`,
    newForm: `${added.name}(${added.detail ?? ''})`,
    // A parameter that is gone marks the old call; without one, the old call as a reader wrote it.
    staleNeedles: gone ? [`${old.name}(`, gone] : [`${old.name}(${before.join(', ')})`],
    updatedNeedles: fresh ? [`${added.name}(`, fresh] : [`${added.name}(${after.join(', ')})`],
  };
}

/** A removed function keeps its parameters in its old form (what the docs show); a renamed one is named by its name alone. */
function describe(how: ChangeHow, old: Found, added?: Found): Forms {
  if (how === 'signature' && added) return signature(old, added);
  return renamedOrRemoved(how, old, added, (f) => (how === 'removed' && f.detail !== undefined ? `${f.name}(${f.detail})` : f.name));
}

export const symbolItems: ItemReader = {
  kind: 'symbol',
  langs: CODE,
  detailHow: 'signature',
  read,
  describe,
  weights: { removed: 100, renamed: 95, signature: 70 },
};
