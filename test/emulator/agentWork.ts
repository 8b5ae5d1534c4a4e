import type { DocsRepo, FileChange } from './docsRepo';
import type { SitePage } from './siteFiles';

// What the emulator's agent does to the docs repository: a job works on its own branch, and each
// instruction that ends with a pull request commits one real edit there, so a diff, a fetch and a
// preview of the branch all show something a person can check. The edit is the instruction itself,
// added to the page it names as a note: no language model, and the same prompt gives the same edit.

const FILES_WORD = /\[\[files:(\d{1,6})\]\]/i;
/** Enough for the review benchmark's thousands of files, and a bound on what one prompt can make. */
export const MAX_FILES = 5000;
const MAGIC_WORDS = /\[\[[^\]]*\]\]/g;
const NOTE_MAX_CHARS = 300;

/** The branch a job works on: `docs-agent/` and the first eight hex digits of its id. */
export function branchFor(jobId: string): string {
  return `docs-agent/${jobId.replace(/^job_/, '').slice(0, 8)}`;
}

/** `[[files:N]]`: the commit changes N files (at most MAX_FILES); 0 without the word. */
export function filesWanted(prompt: string): number {
  const n = Number(FILES_WORD.exec(prompt)?.[1] ?? 0);
  return Math.min(n, MAX_FILES);
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The page a prompt names, by its path as a whole word (`webhooks`, `docs/webhooks.md`): the longest
 * name wins, so "configuration-v1" is not read as "configuration"; undefined when it names none.
 */
export function pageNamed(prompt: string, pages: readonly SitePage[]): SitePage | undefined {
  const named = pages.filter((p) => new RegExp(`(?<![\\w-])${escapeRegExp(p.slug)}(?:\\.mdx?)?(?![\\w-])`, 'i').test(prompt));
  return named.sort((a, b) => b.slug.length - a.slug.length)[0];
}

/**
 * The instruction, one line: what follows `Instruction:` in a reviewed prompt (src/agent/core/prompt.ts)
 * or the whole prompt, without magic words, and without `<`, `>`, `{`, `}` that an .mdx page would
 * read as markup.
 */
export function instructionOf(prompt: string): string {
  const marked = /^Instruction:\s*([\s\S]*)$/m.exec(prompt)?.[1] ?? prompt;
  const line = marked
    .replace(MAGIC_WORDS, ' ')
    .replace(/[<>{}]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const cut = line.length <= NOTE_MAX_CHARS ? line : `${line.slice(0, NOTE_MAX_CHARS - 1).trimEnd()}…`;
  return cut === '' ? 'Clarified this page.' : cut;
}

/**
 * Makes the commit for a job's latest instruction, on top of `parent` (default: the branch's tip),
 * without moving the branch; its id. It edits the page the latest prompt names, else the one an
 * earlier prompt named (a follow-up goes on with the same page), else the navigation's first page.
 */
export async function makeEdit(repo: DocsRepo, branch: string, jobId: string, prompts: readonly string[], parent?: string): Promise<string> {
  const n = prompts.length;
  const prompt = prompts[n - 1] ?? '';
  const page = [...prompts].reverse().reduce<SitePage | undefined>((found, p) => found ?? pageNamed(p, repo.pages), undefined) ?? repo.pages[0];
  const instruction = instructionOf(prompt);
  const changes: FileChange[] = [];
  if (page) {
    const before = (parent ? await repo.readFileAt(parent, page.file) : await repo.readFile(branch, page.file)) ?? '';
    changes.push({ path: page.file, text: `${before.trimEnd()}\n\n> **Note:** ${instruction}\n` });
  }
  const generated = Math.max(0, filesWanted(prompt) - changes.length);
  for (let i = 1; i <= generated; i++) {
    const id = String(i).padStart(4, '0');
    changes.push({ path: `reference/generated/page-${id}.md`, text: `# Generated page ${id}\n\nWritten for instruction ${n} of ${jobId}.\n` });
  }
  const subject = instruction.length <= 72 ? instruction : `${instruction.slice(0, 71)}…`;
  return repo.makeCommit(branch, `${subject}\n\nDocs agent job ${jobId}, instruction ${n}.\n`, changes, parent);
}
