import * as assert from 'node:assert/strict';
import { ChatFocus, type ChatSurfaces } from '../../src/chat/core/chatFocus';

// Where the host puts focus when a command opens the chat: the chat is shown (taking focus) where
// the user has it, then its input box is focused, in that order. A focusInput sent before the view
// exists would be held by a page that is not there yet; one sent without showing would leave the
// keyboard where it was (the editor, the view's title button).

function recorder(panelInView: boolean): { surfaces: ChatSurfaces; calls: string[]; viewShown: () => void } {
  const calls: string[] = [];
  let resolveView: () => void = () => undefined;
  const surfaces: ChatSurfaces = {
    panelInView: () => panelInView,
    showPanel: () => void calls.push('showPanel'),
    showView: () => {
      calls.push('showView');
      return new Promise<void>((r) => (resolveView = r));
    },
  };
  return { surfaces, calls, viewShown: () => resolveView() };
}

describe('chat focus: commands that open the chat focus its input box', () => {
  it('shows the side-bar view, and focuses the input box only once the view exists', async () => {
    const { surfaces, calls, viewShown } = recorder(false);
    const focus = new ChatFocus(surfaces, (text) => calls.push(`focusInput ${text ?? ''}`.trim()));
    const shown = focus.show();
    await Promise.resolve();
    assert.deepEqual(calls, ['showView'], 'the input box is not focused before the view is there');
    viewShown();
    await shown;
    assert.deepEqual(calls, ['showView', 'focusInput']);
  });

  it('uses the chat editor tab when it is the one in view, and fills the box with a command question', async () => {
    const { surfaces, calls } = recorder(true);
    const focus = new ChatFocus(surfaces, (text) => calls.push(`focusInput ${text ?? ''}`.trim()));
    await focus.show('What does this do?');
    assert.deepEqual(calls, ['showPanel', 'focusInput What does this do?']);
  });

  it('Open in Editor opens the tab and focuses its input box', () => {
    const { surfaces, calls } = recorder(false);
    new ChatFocus(surfaces, (text) => calls.push(`focusInput ${text ?? ''}`.trim())).showInEditor();
    assert.deepEqual(calls, ['showPanel', 'focusInput']);
  });
});
