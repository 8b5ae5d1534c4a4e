import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Locator } from 'playwright-core';
import { ROOT } from './stack';
import { step } from './workbench';
import { withStack } from './withStack';

// The getting-started walkthrough (contributes.walkthroughs) as VS Code renders it: opened the
// way a user finds it, from "Welcome: Open Walkthrough...", with its title, its five steps, each
// step's markdown page, the steps already done ticked, and a step's button running its command.

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const nlsPath = join(ROOT, 'package.nls.json');
const nls: Record<string, string> = existsSync(nlsPath) ? JSON.parse(readFileSync(nlsPath, 'utf8')) : {};
/** What VS Code shows for a manifest string: a `%key%` placeholder is replaced from package.nls.json. */
const shown = (s: string) => nls[/^%(.+)%$/.exec(s)?.[1] ?? ''] ?? s;
const walkthrough = pkg.contributes.walkthroughs[0] as { id: string; title: string; steps: { id: string; title: string; media: { markdown: string } }[] };
const WALKTHROUGH_ID = `${pkg.publisher}.${pkg.name}#${walkthrough.id}`;
const TITLE = shown(walkthrough.title);

describe('e2e: the getting-started walkthrough in a real VS Code', function () {
  const e2e = withStack({
    // Settings point at the emulator and both demo keys are seeded: the service step and the
    // admin key step are done before the walkthrough is ever opened.
    stack: { demoKeys: true },
  });

  const details = () => e2e.wb.page.locator('.gettingStartedSlideDetails');
  const stepButton = (id: string): Locator => details().locator(`.getting-started-step[data-step-id="${WALKTHROUGH_ID}#${id}"]`);

  /** Waits until a step's tick is `checked` (aria-checked on the step), or says what it shows. */
  async function waitForTick(id: string, checked: boolean, timeout = 20_000): Promise<void> {
    const deadline = Date.now() + timeout;
    for (;;) {
      const now = await stepButton(id).getAttribute('aria-checked');
      if (now === String(checked)) return;
      if (Date.now() > deadline)
        throw new Error(`Step ${id} is ${now === 'true' ? '' : 'not '}ticked after ${timeout} ms; expected ${checked ? 'ticked' : 'not ticked'}.`);
      await e2e.wb.page.waitForTimeout(100);
    }
  }

  /** The walkthrough's media webview whose page shows this heading (VS Code nests it in host iframes). */
  async function mediaWithHeading(heading: string, timeout = 15_000): Promise<Frame> {
    const deadline = Date.now() + timeout;
    for (;;) {
      for (const f of e2e.wb.page.frames()) {
        if (f === e2e.wb.page.mainFrame()) continue;
        const h1 = await f
          .locator('h1')
          .first()
          .innerText({ timeout: 200 })
          .catch(() => '');
        if (h1.trim() === heading) return f;
      }
      if (Date.now() > deadline) throw new Error(`No walkthrough page with the heading "${heading}" appeared.`);
      await e2e.wb.page.waitForTimeout(200);
    }
  }

  const headingOf = (md: string) => /^# (.+)$/m.exec(readFileSync(join(ROOT, md), 'utf8'))![1]!.trim();

  it('opens from "Welcome: Open Walkthrough..." with its title, five steps and the first step’s page', async function () {
    await step(e2e.wb, 'pick it in Welcome: Open Walkthrough...', async () => {
      await e2e.wb.command('Welcome: Open Walkthrough...');
      await e2e.wb.waitForQuickInput(new RegExp(TITLE));
      await e2e.wb.pickQuickItem(new RegExp(`^${TITLE}`));
    });
    await step(e2e.wb, 'the title and the steps render', async () => {
      await details().locator(`.category-title[x-category-title-for="${WALKTHROUGH_ID}"]`).waitFor({ state: 'visible', timeout: 15_000 });
      assert.equal((await details().locator('.category-title').first().innerText()).trim(), TITLE);
      const titles = (await details().locator('.getting-started-step .step-title').allInnerTexts()).map((t) => t.trim());
      assert.deepEqual(
        titles,
        walkthrough.steps.map((s) => shown(s.title)),
      );
      // Each step is one button with the step's command link rendered as a button, not as text.
      for (const s of walkthrough.steps)
        assert.equal(await stepButton(s.id).locator('.button-container .monaco-button').count(), 1, `step ${s.id} has its button`);
    });
    await step(e2e.wb, 'the first step’s markdown page shows', async () => {
      const page = await mediaWithHeading(headingOf(walkthrough.steps[0]!.media.markdown));
      assert.match(await page.locator('body').innerText(), /Base URL/);
      assert.equal(await page.locator('table tr').count(), 4, 'the settings table renders as a table');
      await e2e.wb.shot('walkthrough-1-opened');
    });
  });

  it('ticks the steps already done, and a step’s button runs its command and ticks it', async function () {
    await step(e2e.wb, 'service and both keys are done (whoever stored them), the rest is not', async () => {
      await waitForTick('configure', true);
      await waitForTick('adminKey', true);
      await waitForTick('assistantKey', true);
      for (const id of ['firstQuestion', 'firstJob']) await waitForTick(id, false, 1000);
    });
    await step(e2e.wb, 'Set Assistant API Key opens the key box', async () => {
      await stepButton('assistantKey').click();
      await stepButton('assistantKey').locator('.monaco-button', { hasText: 'Set Assistant API Key' }).click();
      await e2e.wb.waitForQuickInput(/assistant API key/i);
      await mediaWithHeading(headingOf(walkthrough.steps[1]!.media.markdown));
      await e2e.wb.page.keyboard.press('Escape');
      await waitForTick('assistantKey', true);
    });
    await step(e2e.wb, 'Ask Docs opens the chat, and the step is ticked', async () => {
      await stepButton('firstQuestion').click();
      await stepButton('firstQuestion').locator('.monaco-button', { hasText: 'Ask Docs' }).click();
      await e2e.wb.chatFrame();
      await waitForTick('firstQuestion', true);
      await e2e.wb.shot('walkthrough-2-steps-ticked');
    });
  });
});
