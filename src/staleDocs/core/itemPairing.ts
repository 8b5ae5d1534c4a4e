import type { ChangeHow } from './staleDocs';
import type { Found, ItemReader } from './itemKinds';
import type { DiffLine } from './unifiedDiff';

// The pairing rule (issue 32): an item removed and one of the same kind added with the same name
// anywhere in the diff is the same item (moved, or with a new default or signature); else one
// added in the same hunk with the same context (the rest of the line, or the same value) is its
// new name; else, when a run of changed lines removes as many of the kind as it adds, the one at
// the same position is. Whatever is left was removed. An item only added is not listed: no page
// can be stale about it. Maps and one pass per list: linear in the finds.

/** A find on one changed line of one file. */
export interface Placed {
  found: Found;
  line: DiffLine;
  /** The file's index in the diff: `line.block` is numbered per file. */
  file: number;
  /** The hunk's index in the diff. */
  hunk: number;
}

export interface Pair {
  how: ChangeHow;
  old: Placed;
  added?: Placed;
}

/** How many finds of the same name are looked through for one in the same hunk. */
const SAME_HUNK_LOOKS = 8;

function group<K>(xs: readonly Placed[], key: (p: Placed) => K | undefined): Map<K, Placed[]> {
  const m = new Map<K, Placed[]>();
  for (const p of xs) {
    const k = key(p);
    if (k === undefined) continue;
    const list = m.get(k);
    if (list) list.push(p);
    else m.set(k, [p]);
  }
  return m;
}

/** The pairs of one reader's finds over the whole diff, in the order of the removed lines. */
export function pairFinds(reader: ItemReader, removed: readonly Placed[], added: readonly Placed[]): Pair[] {
  const pairs = new Map<Placed, Pair>();
  const removedNames = new Set(removed.map((r) => r.found.name));
  const addedByName = group(added, (a) => a.found.name);
  const left: Placed[] = [];
  for (const r of removed) {
    const same = addedByName.get(r.found.name);
    if (!same) {
      left.push(r);
      continue;
    }
    // Still there: prefer the find in the same hunk, the one the change most likely touched
    // (looked for among the first few only, so a name used thousands of times costs no more).
    const a = same.slice(0, SAME_HUNK_LOOKS).find((x) => x.hunk === r.hunk) ?? same[0]!;
    const [was, now] = [r.found.detail, a.found.detail];
    if (reader.detailHow && was !== undefined && now !== undefined && was !== now) pairs.set(r, { how: reader.detailHow, old: r, added: a });
  }

  const used = new Set<Placed>();
  const fresh = added.filter((a) => !removedNames.has(a.found.name));
  const paired = reader.pairedHow ?? 'renamed';
  // By hunk, then by key: a pair is only looked for in the removed item's own hunk.
  const byHunk = new Map<number, Map<string | number, Placed[]>>();
  for (const [hunk, list] of group(fresh, (a) => a.hunk))
    byHunk.set(
      hunk,
      group(list, (a) => a.found.pairKey || undefined),
    );
  const unpaired: Placed[] = [];
  const taken = new Map<Placed[], number>();
  for (const r of left) {
    // Each list is taken in order from a cursor, so many equal keys cost one step each.
    const list = r.found.pairKey ? byHunk.get(r.hunk)?.get(r.found.pairKey) : undefined;
    const next = list ? (taken.get(list) ?? 0) : 0;
    const a = list?.[next];
    if (a) {
      taken.set(list!, next + 1);
      used.add(a);
      pairs.set(r, { how: paired, old: r, added: a });
    } else unpaired.push(r);
  }

  // A run of changes, as one number: a file's diff has far fewer than a million runs (MAX_FILE_DIFF_LINES).
  const run = (p: Placed) => p.file * 1_000_000 + p.line.block;
  const addedInRun = group(
    fresh.filter((a) => !used.has(a)),
    run,
  );
  const removedInRun = group(unpaired, run);
  const position = new Map<Placed, number>();
  for (const olds of removedInRun.values()) olds.forEach((r, i) => position.set(r, i));
  for (const r of unpaired) {
    const news = addedInRun.get(run(r));
    const a = news && news.length === removedInRun.get(run(r))!.length ? news[position.get(r)!] : undefined;
    pairs.set(r, a ? { how: paired, old: r, added: a } : { how: 'removed', old: r });
  }
  return removed.flatMap((r) => pairs.get(r) ?? []);
}
