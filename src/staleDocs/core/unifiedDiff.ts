import { looksMinified } from './generatedFiles';

// A unified diff (what `git diff` and the Git extension's diff, diffWithHEAD and diffBetween print)
// read into files, hunks and changed lines, each with its line number on its own side. One pass
// over the text with indexOf, no regex over more than one line: linear in the diff's size. A hunk
// is read by its header's counts, so a removed line that starts with `--- ` is a line, not a
// header. Nothing in it is trusted: a file whose diff is over MAX_FILE_DIFF_LINES lines or
// MAX_FILE_DIFF_CHARS characters keeps no lines (tooLarge), a line over MAX_LINE_CHARS is cut.

/** A file's diff past this many lines is not read (a 10,000-line change reads both sides: 20,000). */
export const MAX_FILE_DIFF_LINES = 20_000;
export const MAX_FILE_DIFF_CHARS = 2_000_000;
/** A changed line is cut here: no flag, key or message is longer, and the readers' regexes see at most this. */
export const MAX_LINE_CHARS = 2_000;
/** A path longer than this is not a path (git's own limit is the system's, 4,096 on Linux). */
export const MAX_PATH_CHARS = 4096;
/** The first lines of a file, when the diff shows them, are kept to spot "generated" markers. */
export const HEAD_LINES = 5;

export interface DiffLine {
  /** Which side the line is on: `old` was removed, `new` was added. */
  side: 'old' | 'new';
  /** 1-based, on its side. */
  line: number;
  text: string;
  /** Runs of changed lines between context lines, numbered through the file: pairs are looked for in one. */
  block: number;
}

export interface DiffHunk {
  /** The changed lines only, in diff order (removed before added within a run, as git prints them). */
  lines: DiffLine[];
}

export interface DiffFile {
  /** Repository-relative, `/`-separated; undefined for a new file (old) or a deleted one (new). */
  oldPath?: string;
  newPath?: string;
  /** The path to name it by: the new one, else the old one. */
  path: string;
  renamed: boolean;
  binary: boolean;
  /** Over the bounds: its hunks were dropped. */
  tooLarge: boolean;
  /** Its first lines (context or changed, either side), when the diff shows them. */
  head: string[];
  /** A line over ~1,000 characters that looks minified. */
  minified: boolean;
  hunks: DiffHunk[];
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** Git's C-style quoted path (`"caf\303\251.ts"`), or the text as it is. */
function unquote(text: string): string {
  if (!text.startsWith('"') || !text.endsWith('"') || text.length < 2) return text;
  const bytes: number[] = [];
  const simple: Record<string, number> = { n: 10, t: 9, r: 13, '"': 34, '\\': 92, a: 7, b: 8, f: 12, v: 11 };
  const body = text.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\') {
      bytes.push(...new TextEncoder().encode(c));
      continue;
    }
    const next = body[i + 1] ?? '';
    if (/^[0-7]{3}$/.test(body.slice(i + 1, i + 4))) {
      bytes.push(parseInt(body.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      bytes.push(simple[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** A path from a `---`/`+++` line or a marker: undefined for /dev/null; git's `a/`-style prefix dropped. */
function diffPath(raw: string, prefixed: boolean): string | undefined {
  if (raw.length > MAX_PATH_CHARS) return undefined;
  const text = unquote(raw.replace(/\t.*$/, '').trimEnd());
  if (text === '/dev/null' || !text) return undefined;
  return prefixed && /^[a-z]\//.test(text) ? text.slice(2) : text;
}

/** `diff --git a/x b/x`: both paths when they can be told apart (the same path, or quoted). */
function gitHeaderPaths(rest: string): [string | undefined, string | undefined] {
  const quoted = /^("(?:[^"\\]|\\.)*")\s("(?:[^"\\]|\\.)*")$/.exec(rest);
  if (quoted) return [diffPath(quoted[1]!, true), diffPath(quoted[2]!, true)];
  const half = (rest.length - 1) / 2;
  if (Number.isInteger(half) && rest[half] === ' ' && rest.slice(2, half) === rest.slice(half + 3)) {
    return [diffPath(rest.slice(0, half), true), diffPath(rest.slice(half + 1), true)];
  }
  return [undefined, undefined];
}

function newFile(): DiffFile {
  return { path: '', renamed: false, binary: false, tooLarge: false, head: [], minified: false, hunks: [] };
}

/** Reads `patch` into its files, in order. */
export function parseUnifiedDiff(patch: string): DiffFile[] {
  const files: DiffFile[] = [];
  let file: DiffFile | undefined;
  let lines = 0;
  let chars = 0;
  let hunk: DiffHunk | undefined;
  let oldLine = 0;
  let newLine = 0;
  let oldLeft = 0;
  let newLeft = 0;
  let block = 0;
  let inRun = false;
  const start = (): DiffFile => {
    file = newFile();
    files.push(file);
    hunk = undefined;
    lines = chars = block = 0;
    inRun = false;
    return file;
  };
  const seeHead = (f: DiffFile, at: number, text: string) => {
    if (at <= HEAD_LINES && f.head.length < HEAD_LINES) f.head.push(text);
  };
  const readLine = (f: DiffFile, h: DiffHunk, full: string) => {
    const mark = full[0];
    const text = full.length - 1 > MAX_LINE_CHARS ? full.slice(1, MAX_LINE_CHARS + 1) : full.slice(1);
    if (full.length > 1000 && !f.minified) f.minified = looksMinified(full);
    lines += 1;
    chars += full.length;
    if (!f.tooLarge && (lines > MAX_FILE_DIFF_LINES || chars > MAX_FILE_DIFF_CHARS)) {
      f.tooLarge = true;
      f.hunks = [];
    }
    if (mark === '-') {
      seeHead(f, oldLine, text);
      if (!f.tooLarge) h.lines.push({ side: 'old', line: oldLine, text, block });
      oldLine += 1;
      oldLeft -= 1;
      inRun = true;
    } else if (mark === '+') {
      seeHead(f, newLine, text);
      if (!f.tooLarge) h.lines.push({ side: 'new', line: newLine, text, block });
      newLine += 1;
      newLeft -= 1;
      inRun = true;
    } else if (mark !== '\\') {
      // Context (an empty line is context whose space was trimmed): it ends a run of changes.
      seeHead(f, newLine, text);
      oldLine += 1;
      newLine += 1;
      oldLeft -= 1;
      newLeft -= 1;
      if (inRun) block += 1;
      inRun = false;
    }
  };

  for (let at = 0; at < patch.length;) {
    let end = patch.indexOf('\n', at);
    if (end < 0) end = patch.length;
    const full = patch.charCodeAt(end - 1) === 13 ? patch.slice(at, end - 1) : patch.slice(at, end);
    at = end + 1;

    const mark = full[0];
    if (file && hunk && (oldLeft > 0 || newLeft > 0)) {
      if (mark === '-' || mark === '+' || mark === ' ' || mark === '\\' || full === '') {
        readLine(file, hunk, full);
        continue;
      }
      // Counts that do not add up: this is a header, not a line of the hunk.
      oldLeft = newLeft = 0;
    }

    if (full.startsWith('diff --git ')) {
      const f = start();
      [f.oldPath, f.newPath] = gitHeaderPaths(full.slice(11));
    } else if (full.startsWith('--- ')) {
      // A plain unified diff has no `diff --git` line: `---` starts its file.
      const f = file && !file.hunks.length && !file.tooLarge && !file.binary ? file : start();
      f.oldPath = diffPath(full.slice(4), true);
    } else if (full.startsWith('+++ ') && file) {
      file.newPath = diffPath(full.slice(4), true);
    } else if (full.startsWith('@@') && file) {
      const m = HUNK.exec(full);
      if (!m) continue;
      oldLine = Number(m[1]);
      newLine = Number(m[3]);
      oldLeft = m[2] === undefined ? 1 : Number(m[2]);
      newLeft = m[4] === undefined ? 1 : Number(m[4]);
      // `-0,0`: nothing on that side; its first line would be 1.
      if (oldLine === 0) oldLine = 1;
      if (newLine === 0) newLine = 1;
      if (inRun) block += 1;
      inRun = false;
      hunk = { lines: [] };
      if (!file.tooLarge) file.hunks.push(hunk);
    } else if (file && (full.startsWith('rename from ') || full.startsWith('copy from '))) {
      file.oldPath = diffPath(full.slice(full.indexOf(' from ') + 6), false);
      file.renamed = full.startsWith('rename');
    } else if (file && (full.startsWith('rename to ') || full.startsWith('copy to '))) {
      file.newPath = diffPath(full.slice(full.indexOf(' to ') + 4), false);
    } else if (file && full.startsWith('new file mode')) file.oldPath = undefined;
    else if (file && full.startsWith('deleted file mode')) file.newPath = undefined;
    else if (file && (full.startsWith('Binary files ') || full === 'GIT binary patch')) file.binary = true;
  }
  for (const f of files) f.path = f.newPath ?? f.oldPath ?? '';
  return files.filter((f) => f.path);
}
