import type { Frame } from 'playwright-core';
import { step } from './workbench';
import { withStack } from './withStack';

// Issue 29, in a real VS Code: Docs Assistant: Focus Chat Input's key (Ctrl+Alt+J) puts the
// keyboard in the chat's input box from an editor and from inside the chat itself, and the
// commands that open the chat leave it there too (New Conversation, Focus on Ask Docs View).
// "There" means the webview's frame has the keyboard and its input box is its active element.
// The whole keyboard walk of the chat is the accessibility e2e's; this is the command and its key.

describe('e2e: Focus Chat Input and the commands that open the chat', function () {
  const e2e = withStack({ stack: { demoKeys: true }, openChat: true });

  /** Waits until the chat's input box has the keyboard. */
  async function inputFocused(chat: Frame, what: string): Promise<void> {
    await chat
      .waitForFunction(() => document.hasFocus() && document.activeElement?.matches('textarea.input') === true, undefined, { timeout: 10_000 })
      .catch(async () => {
        const where = await chat.evaluate(() => `${document.hasFocus() ? 'frame focused' : 'frame not focused'}, active: ${document.activeElement?.tagName}`);
        throw new Error(`${what}: the chat's input box does not have the keyboard (${where}).`);
      });
  }

  /**
   * Puts the keyboard in the editor, and waits until the chat no longer has it. Through the palette,
   * whose helper opens it again when a late focus closes it: VS Code 1.100 focuses a webview shown
   * with focus once more a moment later (its workaround for microsoft/vscode#75209), which can
   * close a quick open (Ctrl+P) pressed right after.
   */
  async function toEditor(chat: Frame): Promise<void> {
    await e2e.wb.command('View: Focus First Editor Group');
    await chat.waitForFunction(() => !document.hasFocus(), undefined, { timeout: 10_000 });
  }

  it('Ctrl+Alt+J from an editor and from inside the chat, New Conversation and Focus on Ask Docs View', async function () {
    await step(e2e.wb, 'from an editor, Ctrl+Alt+J', async () => {
      await e2e.wb.openFile('src/relay.ts');
      await toEditor(e2e.chat);
      await e2e.wb.page.keyboard.press('Control+Alt+J');
      await inputFocused(e2e.chat, 'Ctrl+Alt+J in an editor');
    });
    await step(e2e.wb, 'from the conversation inside the chat, Ctrl+Alt+J', async () => {
      await e2e.chat.locator('.transcript').focus();
      await e2e.wb.page.keyboard.press('Control+Alt+J');
      await inputFocused(e2e.chat, 'Ctrl+Alt+J in the chat');
    });
    await step(e2e.wb, 'New Conversation from the palette', async () => {
      await toEditor(e2e.chat);
      await e2e.wb.command('Docs Assistant: New Conversation');
      await inputFocused(e2e.chat, 'New Conversation');
    });
    await step(e2e.wb, 'Focus on Ask Docs View from the palette', async () => {
      await toEditor(e2e.chat);
      await e2e.wb.command('Docs Assistant: Focus on Ask Docs View');
      await inputFocused(e2e.chat, 'Focus on Ask Docs View');
    });
  });
});
