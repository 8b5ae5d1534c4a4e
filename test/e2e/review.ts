import type { Locator } from 'playwright-core';
import { EDITOR_INPUT, type Workbench } from './workbench';

// Drives the prompt review document (src/agent/vscode/reviewDocument.ts) the way a user does: an
// untitled Markdown editor with "Send to Agent" and "Cancel" in its title bar. Kept apart from
// workbench.ts, which other suites extend.

const ACTIVE_GROUP = '.editor-group-container.active';
export const SEND = 'Send to Agent';
export const CANCEL = 'Cancel (Send Nothing)';

/** A button in the title bar of the active editor group, by its title. */
export function titleAction(wb: Workbench, title: string): Locator {
  return wb.page.locator(`${ACTIVE_GROUP} .editor-actions .action-label[aria-label^="${title}"]`);
}

/** Waits for the review document: an untitled editor whose title bar has Send to Agent and Cancel. */
export async function waitForReview(wb: Workbench, timeout = 15_000): Promise<void> {
  const deadline = Date.now() + timeout;
  try {
    await titleAction(wb, SEND).waitFor({ state: 'visible', timeout });
    await titleAction(wb, CANCEL).waitFor({ state: 'visible', timeout: 2000 });
  } catch {
    const actions = await wb.page.locator(`${ACTIVE_GROUP} .editor-actions .action-label`).evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    const quickInput = await wb.page
      .locator('.quick-input-widget')
      .innerText()
      .catch(() => '');
    throw new Error(
      `No review document with "${SEND}" in its title bar. Title bar: ${JSON.stringify(actions)}; quick input: ${JSON.stringify(quickInput.slice(0, 200))}`,
    );
  }
  // VS Code names an untitled tab after its first line, then "Untitled-N". While one review
  // replaces another, a file's tab may be active for a moment: wait for the review's, within the
  // same time, rather than judge the first moment.
  for (;;) {
    const tab = (await wb.page.locator(`${ACTIVE_GROUP} .tab.active`).first().getAttribute('aria-label')) ?? '';
    if (/\bUntitled-\d+/.test(tab)) return;
    if (Date.now() > deadline) throw new Error(`The review is not an untitled document: the active tab is "${tab}".`);
    await wb.page.waitForTimeout(100);
  }
}

function activeEditor(wb: Workbench): Locator {
  return wb.page.locator(`${ACTIVE_GROUP} .monaco-editor :is(${EDITOR_INPUT})`).first();
}

/**
 * Every character of the active editor, as the user's own Copy gives it (the rendered lines are
 * virtualised and show whitespace as other characters, so the DOM cannot be read for this).
 */
export async function editorText(wb: Workbench): Promise<string> {
  const sentinel = `(clipboard not written ${Date.now()})`;
  await wb.page.evaluate((s) => navigator.clipboard.writeText(s), sentinel);
  await activeEditor(wb).focus();
  await wb.page.keyboard.press('Control+A');
  await wb.page.keyboard.press('Control+C');
  const deadline = Date.now() + 5000;
  let text = sentinel;
  while (text === sentinel && Date.now() < deadline) {
    await wb.page.waitForTimeout(100);
    text = await wb.page.evaluate(() => navigator.clipboard.readText());
  }
  await wb.page.keyboard.press('Control+End');
  if (text === sentinel) throw new Error('Copying the editor text did not reach the clipboard within 5 s.');
  return text;
}

/** Types at the end of the active editor, with the keyboard (\n presses Enter). */
export async function typeAtEnd(wb: Workbench, text: string): Promise<void> {
  await activeEditor(wb).focus();
  await wb.page.keyboard.press('Control+End');
  await wb.page.keyboard.type(text);
}

/** Clicks a title bar button of the review, and waits for the review editor to close. */
export async function clickReviewAction(wb: Workbench, title: typeof SEND | typeof CANCEL, how: 'click' | 'keyboard' = 'click'): Promise<void> {
  const tab = wb.page.locator(`${ACTIVE_GROUP} .tab.active`).first();
  const name = (await tab.getAttribute('aria-label')) ?? '';
  if (how === 'keyboard' && title === SEND) await wb.page.keyboard.press('Control+Enter');
  else await titleAction(wb, title).click();
  // The name is the question or instruction, so it may hold quotes: compare it, never splice it into a selector.
  const stillOpen = () => wb.page.locator('.tab').evaluateAll((tabs, n) => tabs.some((t) => t.getAttribute('aria-label') === n), name);
  const deadline = Date.now() + 10_000;
  while (await stillOpen()) {
    if (
      await wb.page
        .locator('.monaco-dialog-box')
        .isVisible()
        .catch(() => false)
    )
      throw new Error(`"${title}" asked something instead of closing the review: ${await wb.page.locator('.monaco-dialog-box').innerText()}`);
    if (Date.now() > deadline) throw new Error(`The review (${name}) was still open 10 s after "${title}".`);
    await wb.page.waitForTimeout(100);
  }
}

/** "Fix Docs with Agent…" from the palette: the instruction, then Send to Agent on the review as shown. Returns the text sent. */
export async function fixDocsThroughReview(wb: Workbench, instruction: string): Promise<string> {
  await wb.command('Docs Assistant: Fix Docs with Agent…');
  await wb.waitForQuickInput(/Describe the fix/i);
  await wb.typeIntoQuickInput(instruction);
  await waitForReview(wb);
  const shown = await editorText(wb);
  await clickReviewAction(wb, SEND);
  return shown;
}

/** Waits for a review document whose text passes `test` (another review may still be on its way out), and returns the text. */
export async function waitForReviewText(wb: Workbench, test: (text: string) => boolean, what: string, timeout = 15_000): Promise<string> {
  const deadline = Date.now() + timeout;
  for (;;) {
    await waitForReview(wb, Math.max(1000, deadline - Date.now()));
    const text = await editorText(wb);
    if (test(text)) return text;
    if (Date.now() > deadline) throw new Error(`The review shown is not ${what}: it holds ${JSON.stringify(text.slice(0, 200))}`);
    await wb.page.waitForTimeout(200);
  }
}
