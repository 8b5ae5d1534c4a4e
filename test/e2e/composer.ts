import type { Frame, Locator } from 'playwright-core';

// The chat's composer as a command run with arguments leaves it (issue 27): the question in the
// input box and the selection as a chip, waiting for the user's Send.

/** Waits until the composer shows a chip naming `chip` and `question` in its box; returns the box. */
export async function waitForFilledComposer(chat: Frame, question: string, chip: string, timeout = 20_000): Promise<Locator> {
  await chat.locator('.composer-chips .chip', { hasText: chip }).first().waitFor({ state: 'visible', timeout });
  const box = chat.locator('textarea').first();
  const deadline = Date.now() + timeout;
  for (;;) {
    const text = await box.inputValue();
    if (text === question) return box;
    if (Date.now() > deadline) throw new Error(`The composer's box holds ${JSON.stringify(text)}, not ${JSON.stringify(question)}.`);
    await chat.page().waitForTimeout(100);
  }
}
