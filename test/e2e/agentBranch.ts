import type { Locator } from 'playwright-core';
import type { Workbench } from './workbench';

// Steps of Review Changes in a real workbench, shared by review.e2e.ts and bench/review-driver.ts:
// the branch a job row names, its inline actions, and the multi-file diff editor's entries.

/** The branch a job row shows: its description is "acme/acme-docs@<ref> · model · age". */
export async function rowBranch(row: Locator): Promise<string> {
  const text = await row.innerText();
  const ref = /@(\S+) ·/.exec(text)?.[1];
  if (!ref) throw new Error(`No branch in the job row: ${JSON.stringify(text)}`);
  return ref;
}

/** An inline action of a tree row (shown on hover), by its title. */
export function rowAction(row: Locator, title: string): Locator {
  return row.locator(`.actions .action-label[aria-label^="${title}"]`);
}

export async function clickRowAction(row: Locator, title: string): Promise<void> {
  await row.hover();
  await rowAction(row, title).click();
}

const ENTRY = '.multiDiffEditor .multiDiffEntry';

/** Waits until the active multi-file diff editor shows `count` entries; returns each one's text (spaces as spaces). */
export async function multiDiffEntries(wb: Workbench, count: number, timeout = 30_000): Promise<string[]> {
  const entries = wb.page.locator(ENTRY);
  const deadline = Date.now() + timeout;
  while ((await entries.count()) !== count) {
    if (Date.now() > deadline) throw new Error(`The multi-file diff editor shows ${await entries.count()} entries, not ${count}.`);
    await wb.page.waitForTimeout(200);
  }
  return (await entries.allInnerTexts()).map((t) => t.replace(/\u00a0/g, ' '));
}
