// Moving between answers by keyboard, as in VS Code's own Chat: Ctrl+↑ (Cmd+↑ on a Mac) from the
// input box goes to the last answer, again to the one before; Ctrl+↓ (Cmd+↓) goes to the next one,
// and from the last one back to the input box; from inside an answer, Ctrl+↑ goes to that answer. A turn reached this way is focused as a whole and
// named by its question; Tab then walks its links, code blocks and buttons. On a focused turn,
// ↑/↓ and Home/End move too, as in a list. On a Mac, Cmd+↑ in the input box moves to the answers
// only with the cursor on its first line (Cmd+↑ moves the cursor to the top otherwise), as VS Code does.

export interface TurnNavigationParts {
  /** The transcript, whose `article[data-turn]` children are the turns. */
  transcript: HTMLElement;
  /** The input box. */
  input: HTMLTextAreaElement;
  /** Focuses the input box. */
  focusInput(): void;
}

function turnsIn(transcript: HTMLElement): HTMLElement[] {
  return [...transcript.querySelectorAll<HTMLElement>(':scope > article[data-turn]')];
}

/** Focuses a turn, made focusable (not a Tab stop: Tab goes through what is inside it). */
export function focusTurn(turn: HTMLElement): void {
  turn.tabIndex = -1;
  turn.focus();
}

function caretOnFirstLine(input: HTMLTextAreaElement): boolean {
  return !input.value.slice(0, input.selectionStart).includes('\n');
}

/** Where a key sends focus from `from`: a turn, the input box ('input'), or nowhere (undefined: the key does what it does). */
function destination(e: KeyboardEvent, from: Element, parts: TurnNavigationParts): HTMLElement | 'input' | undefined {
  const turns = turnsIn(parts.transcript);
  const current = from.closest<HTMLElement>('article[data-turn]');
  const i = current ? turns.indexOf(current) : -1;
  const chord = (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey;
  const onTurn = i >= 0 && from === current && !e.ctrlKey && !e.metaKey && !e.altKey && !e.shiftKey;
  if (chord && e.key === 'ArrowUp') {
    if (from === parts.input) return e.metaKey && !caretOnFirstLine(parts.input) ? undefined : turns.at(-1);
    // From inside an answer (a link, a button), first to that answer; from an answer, to the one before.
    if (current && from !== current) return current;
    return i > 0 ? turns[i - 1] : i < 0 ? turns.at(-1) : current!;
  }
  if (chord && e.key === 'ArrowDown') {
    if (from === parts.input) return undefined;
    return i >= 0 && i < turns.length - 1 ? turns[i + 1] : 'input';
  }
  if (onTurn && e.key === 'ArrowUp') return turns[Math.max(0, i - 1)];
  if (onTurn && e.key === 'ArrowDown') return turns[Math.min(turns.length - 1, i + 1)];
  if (onTurn && e.key === 'Home') return turns[0];
  if (onTurn && e.key === 'End') return turns.at(-1);
  return undefined;
}

export function installTurnNavigation(parts: TurnNavigationParts): void {
  document.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || e.isComposing || !(e.target instanceof Element)) return;
    const to = destination(e, e.target, parts);
    if (!to) return;
    e.preventDefault();
    if (to === 'input') parts.focusInput();
    else focusTurn(to);
  });
}
