// A file as it is at a commit, as the review's diff editor shows it (vscode/review/commitDocuments.ts).
// The document's address names the commit and the file's path: anything may open such an address
// (a link, another extension), so both are checked here before git is asked, and what git answers
// is shown only when it is text of a bounded size.

/** A full commit id (SHA-1, or SHA-256 in a repository that uses it): never a ref, a range or an option. */
export function isCommitId(value: unknown): value is string {
  return typeof value === 'string' && /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(value);
}

/** Whether a path has a `.` or `..` segment (or an empty one): it could name something else than it shows. */
export function hasDotSegments(path: string): boolean {
  return path
    .split('/')
    .slice(1)
    .some((s) => s === '' || s === '.' || s === '..');
}

/** Past this size a side of the diff is not shown: the editor would hold it all, for every file of the branch. */
export const MAX_SHOWN_BYTES = 5 * 1024 * 1024;
/** Git's own test for a binary file: a NUL byte in its first 8,000. */
const BINARY_PROBE = 8000;

/** Whether a file's bytes are shown as text: small enough, and not binary by git's own test. */
export function isShownAsText(bytes: Uint8Array): boolean {
  return bytes.length <= MAX_SHOWN_BYTES && !bytes.subarray(0, BINARY_PROBE).includes(0);
}

/**
 * Runs tasks at most `limit` at a time, in the order they came. The diff editor asks for every side
 * of every file at once; a process each, all together, would leave a two-core machine (and the
 * extension host that spawns them) busy with nothing else for seconds.
 */
export function concurrencyLimit(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  const next = (): void => {
    if (running >= limit) return;
    const start = waiting.shift();
    if (start) {
      running++;
      start();
    }
  };
  return <T>(task: () => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      waiting.push(() => {
        Promise.resolve()
          .then(task)
          .then(resolve, reject)
          .finally(() => {
            running--;
            next();
          });
      });
      next();
    });
}

/**
 * The last texts read, up to `maxChars` in all, the least recently used dropped first. A file at a
 * commit never changes, and VS Code asks again for a diff side it dropped (1.139 re-reads every
 * side after the next Review Changes opens): from here it costs no git process.
 */
export class TextCache {
  private readonly texts = new Map<string, string>();
  private chars = 0;

  constructor(private readonly maxChars: number) {}

  get(key: string): string | undefined {
    const text = this.texts.get(key);
    if (text === undefined) return undefined;
    // Most recently used last: Map keeps insertion order.
    this.texts.delete(key);
    this.texts.set(key, text);
    return text;
  }

  set(key: string, text: string): void {
    if (text.length > this.maxChars) return;
    const old = this.texts.get(key);
    if (old !== undefined) {
      this.texts.delete(key);
      this.chars -= old.length;
    }
    this.texts.set(key, text);
    this.chars += text.length;
    for (const [k, t] of this.texts) {
      if (this.chars <= this.maxChars) break;
      this.texts.delete(k);
      this.chars -= t.length;
    }
  }
}
