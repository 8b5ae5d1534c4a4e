import { commandItems } from './commandItems';
import { configItems } from './configItems';
import { envItems } from './envItems';
import { errorItems } from './errorItems';
import { flagItems } from './flagItems';
import { saysGenerated, skipByPath } from './generatedFiles';
import { pairFinds, type Pair, type Placed } from './itemPairing';
import { languageOf, LineView, renamedOrRemoved, type Forms, type ItemReader } from './itemKinds';
import { routeItems } from './routeItems';
import { MAX_ITEMS, MAX_SKIPPED, type ChangedItem, type Extraction, type SkipReason } from './staleDocs';
import { symbolItems } from './symbolItems';
import { parseUnifiedDiff, type DiffFile } from './unifiedDiff';

// From a diff's text to what readers of the docs would see changed (issue 32): each file read by
// the readers of its language, skipped when generated, vendored, binary or too large; the finds
// of each kind paired into renamed, removed, new-default and new-signature items; ranked by
// weight (removed and renamed names and flags first, messages last) and cut at MAX_ITEMS. Linear
// in the diff: one pass to parse, one regex pass per reader over each changed line (cut at
// MAX_LINE_CHARS), then maps.

const READERS: readonly ItemReader[] = [symbolItems, flagItems, commandItems, configItems, envItems, routeItems, errorItems];

/** Files that ship minified: scripts and style sheets. */
const MINIFIABLE = /\.(?:[cm]?js|css)$/i;

/** Why a file is not read, or undefined. */
function skipReason(f: DiffFile): SkipReason | undefined {
  if (f.binary) return 'binary';
  const byPath = skipByPath(f.path) ?? (f.oldPath && f.oldPath !== f.path ? skipByPath(f.oldPath) : undefined);
  if (byPath) return byPath;
  // Only what ships minified is taken for minified: a source file with one long line (an inline
  // image, a long pattern) is still read, or its renamed flags would be missed.
  if ((f.minified && MINIFIABLE.test(f.path)) || saysGenerated(f.head)) return 'generated';
  return f.tooLarge ? 'tooLarge' : undefined;
}

function toItem(reader: ItemReader, pair: Pair, forms: Forms, files: readonly DiffFile[]): ChangedItem {
  const place = (p: Placed, side: 'old' | 'new') => {
    const f = files[p.file]!;
    return { file: (side === 'old' ? f.oldPath : f.newPath) ?? f.path, line: p.line.line };
  };
  return {
    id: `${reader.kind}:${forms.oldForm}`,
    kind: reader.kind,
    how: pair.how,
    ...forms,
    old: place(pair.old, 'old'),
    ...(pair.added ? { new: place(pair.added, 'new') } : {}),
    weight: reader.weights[pair.how] ?? 0,
  };
}

/** What readers of the docs would see changed in `patch` (a unified diff), most important first. */
export function extractChanges(patch: string): Extraction {
  const files = parseUnifiedDiff(patch);
  const skipped: Extraction['skipped'] = [];
  let skippedCount = 0;
  const finds = new Map<ItemReader, { removed: Placed[]; added: Placed[] }>(READERS.map((r) => [r, { removed: [], added: [] }]));
  let hunkIndex = 0;
  files.forEach((f, file) => {
    const why = skipReason(f);
    if (why) {
      skippedCount += 1;
      if (skipped.length < MAX_SKIPPED) skipped.push({ path: f.path, why });
      return;
    }
    const lang = languageOf(f.path);
    const readers = lang ? READERS.filter((r) => r.langs.includes(lang)).map((r) => ({ r, into: finds.get(r)! })) : [];
    if (!lang || !readers.length) return;
    for (const h of f.hunks) {
      const hunk = hunkIndex++;
      for (const line of h.lines) {
        const view = new LineView(line.text, lang);
        for (const { r, into } of readers) {
          const found = r.read(view);
          const list = line.side === 'old' ? into.removed : into.added;
          for (let i = 0; i < found.length; i++) list.push({ found: found[i]!, line, file, hunk });
        }
      }
    }
  });

  const all: { reader: ItemReader; pair: Pair; weight: number }[] = [];
  for (const [reader, { removed, added }] of finds) {
    for (const pair of pairFinds(reader, removed, added)) all.push({ reader, pair, weight: reader.weights[pair.how] ?? 0 });
  }
  // Most important first; among equals, in the diff's order. One item per id, at its first place;
  // only the kept ones are built.
  all.sort((a, b) => b.weight - a.weight || a.pair.old.file - b.pair.old.file || a.pair.old.line.line - b.pair.old.line.line);
  const seen = new Set<string>();
  const items: ChangedItem[] = [];
  for (const { reader, pair } of all) {
    const forms = (reader.describe ?? renamedOrRemoved)(pair.how, pair.old.found, pair.added?.found);
    const id = `${reader.kind}:${forms.oldForm}`;
    if (seen.has(id)) continue;
    seen.add(id);
    if (items.length < MAX_ITEMS) items.push(toItem(reader, pair, forms, files));
  }
  return { items, dropped: seen.size - items.length, files: files.length, skipped, skippedCount };
}
