import type { Composer } from './composer';
import { FocusKeeper } from './focusKeeper';
import { installTabCycle } from './tabCycle';
import { installTurnNavigation } from './turnNavigation';

// Focus and keys in the chat page, put together: focus stays on something meaningful through
// renders and VS Code's comings and goings, the input box when nothing better is left
// (focusKeeper.ts); Ctrl+↑/↓ move between the answers and the input box (turnNavigation.ts); Tab
// goes round the page rather than out to the workbench's <body> (tabCycle.ts).

export function installPageFocus(parts: { app: HTMLElement; transcript: HTMLElement; composer: Composer }): FocusKeeper {
  const { app, transcript, composer } = parts;
  installTurnNavigation({ transcript, input: composer.inputElement, focusInput: () => composer.focus() });
  installTabCycle(app);
  return new FocusKeeper(() => composer.focus());
}
