import type { ChangeHow, ChangeKind } from './staleDocs';
import { isCommentLine, stringLiterals, type Literal } from './literals';

// What every reader of one kind of item (symbols, config keys, flags, commands, environment
// variables, routes, error messages) offers the extractor: what it finds on a changed line, and how
// a pair of finds (or one removed) reads to a writer of the docs. One small file per kind.

/** The languages read, by file name. */
export type Lang = 'js' | 'py' | 'go' | 'json' | 'yaml' | 'toml' | 'env';
export const CODE: readonly Lang[] = ['js', 'py', 'go'];

const BY_EXTENSION: Record<string, Lang> = {
  ts: 'js',
  tsx: 'js',
  mts: 'js',
  cts: 'js',
  js: 'js',
  jsx: 'js',
  mjs: 'js',
  cjs: 'js',
  py: 'py',
  go: 'go',
  json: 'json',
  jsonc: 'json',
  yaml: 'yaml',
  yml: 'yaml',
  toml: 'toml',
  env: 'env',
};
/** The tools' own configuration: a dependency bump or a compiler option is not what the docs describe. */
const TOOLING =
  /(?:^|\/)(?:package\.json|tsconfig[\w.-]*\.json|jsconfig\.json|\.eslintrc[\w.]*|\.prettierrc[\w.]*|pyproject\.toml|go\.mod)$|(?:^|\/)\.(?:vscode|github|devcontainer)\//;

/** The language of the file at `path`, or undefined when it is not read. */
export function languageOf(path: string): Lang | undefined {
  if (TOOLING.test(path)) return undefined;
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  if (name === '.env' || name.startsWith('.env.')) return 'env';
  const dot = name.lastIndexOf('.');
  return dot > 0 ? BY_EXTENSION[name.slice(dot + 1)] : undefined;
}

/** One changed line, as the readers see it: its literals are scanned once, for all of them. */
export class LineView {
  private scanned: Literal[] | undefined;
  /** A whole-line comment: no reader of code looks into one. */
  readonly comment: boolean;
  constructor(
    readonly text: string,
    readonly lang: Lang,
  ) {
    this.comment = isCommentLine(text);
  }
  get literals(): Literal[] {
    return (this.scanned ??= stringLiterals(this.text));
  }
}

/** Something a reader of the docs would see, found on one side of the diff. */
export interface Found {
  /** Its identity: `--dlq`, `visibility_timeout`, `publish`. The same name on both sides is the same item. */
  name: string;
  /** What it holds under that name (a default, a parameter list): a different one on the other side is a change. */
  detail?: string;
  /** What stays the same around a renamed one (the rest of the line, or the value): equal keys pair. */
  pairKey?: string | number;
}

/** What a reader returns for a line with nothing for it (most lines, for most readers): one shared empty list. */
export const NONE: readonly Found[] = Object.freeze([]);

/** How an item reads: its old and new form, and what a docs line contains when it says either. */
export interface Forms {
  oldForm: string;
  newForm?: string;
  staleNeedles: string[];
  updatedNeedles: string[];
}

export interface ItemReader {
  readonly kind: ChangeKind;
  readonly langs: readonly Lang[];
  /** What a different detail under the same name is; none: the detail is not compared. */
  readonly detailHow?: ChangeHow;
  /** What a removed item paired with an added one is (default `renamed`). */
  readonly pairedHow?: ChangeHow;
  read(line: LineView): readonly Found[];
  /** How a pair reads; by default by name alone (renamedOrRemoved). */
  describe?(how: ChangeHow, old: Found, added?: Found): Forms;
  /** Higher is more important to readers, by how it changed. */
  readonly weights: Partial<Record<ChangeHow, number>>;
}

/** A removed or renamed item's plain forms: its name, then the new one. */
export function renamedOrRemoved(how: ChangeHow, old: Found, added?: Found, form: (f: Found) => string = (f) => f.name): Forms {
  if (how === 'removed' || !added) return { oldForm: form(old), staleNeedles: [old.name], updatedNeedles: [] };
  return { oldForm: form(old), newForm: form(added), staleNeedles: [old.name], updatedNeedles: [added.name] };
}

/** A new default under the same name: a docs line says the old one when it has the name and the old value. */
export function defaultChanged(old: Found, added: Found, form: (f: Found) => string): Forms {
  const needles = (f: Found) => (f.detail ? [f.name, f.detail] : [f.name]);
  return { oldForm: form(old), newForm: form(added), staleNeedles: needles(old), updatedNeedles: needles(added) };
}
