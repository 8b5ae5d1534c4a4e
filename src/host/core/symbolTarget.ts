import type { PositionArg } from '../../common/commandArgs';

// Which symbol a code action about the word at the cursor is about, from the document's symbols
// (vscode.executeDocumentSymbolProvider, looked up only when the action runs: it can be slow).
// Pure, so the rule is tested in Node.

export interface RangeLike {
  readonly start: PositionArg;
  readonly end: PositionArg;
}

/** A DocumentSymbol, or a SymbolInformation's name and location range (no selectionRange, no children). */
export interface SymbolNode {
  readonly name: string;
  readonly range: RangeLike;
  /** The symbol's name where it is declared. */
  readonly selectionRange?: RangeLike;
  readonly children?: readonly SymbolNode[];
}

/** An enclosing symbol longer than this is not sent for a word used inside it: only the word's line is. */
export const MAX_ENCLOSING_LINES = 80;

const before = (a: PositionArg, b: PositionArg) => a.line < b.line || (a.line === b.line && a.character <= b.character);
const contains = (r: RangeLike, p: PositionArg) => before(r.start, p) && before(p, r.end);
/** Smaller ranges first: fewer lines, then fewer characters on a one-line range. */
const size = (r: RangeLike) => (r.end.line - r.start.line) * 1e7 + (r.end.character - r.start.character);

function* flatten(symbols: readonly SymbolNode[], depth = 0): Generator<SymbolNode> {
  if (depth > 50) return;
  for (const s of symbols) {
    yield s;
    if (s.children?.length) yield* flatten(s.children, depth + 1);
  }
}

/**
 * What `word` at `at` stands for: the symbol it declares (the cursor on a declaration's name: its
 * name and whole range), else the innermost symbol it is used in (the word as the name, that
 * symbol's range as the context) when that is at most MAX_ENCLOSING_LINES long. Undefined when
 * neither: the caller keeps the word's own line.
 */
export function widenToSymbol(symbols: readonly SymbolNode[], at: PositionArg, word: string): { name: string; range: RangeLike } | undefined {
  const around = [...flatten(symbols)].filter((s) => contains(s.range, at)).sort((a, b) => size(a.range) - size(b.range));
  const declared = around.find((s) => (s.selectionRange ? contains(s.selectionRange, at) : s.name === word));
  if (declared) return { name: declared.name, range: declared.range };
  const inner = around[0];
  if (inner && inner.range.end.line - inner.range.start.line < MAX_ENCLOSING_LINES) return { name: word, range: inner.range };
  return undefined;
}
