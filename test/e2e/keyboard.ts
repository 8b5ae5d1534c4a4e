import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { ROOT } from './stack';

// The keyboard, as a keyboard-only user has it in a webview: where the focus is, Tab until an
// element has it, and the keybindings that ship (read from package.json, so a test follows them).

export interface FocusSpot {
  /** The frame's document has the focus (the workbench gave it to this webview). */
  hasFocus: boolean;
  /** document.activeElement is the page's <body> (or nothing): the focus fell to the page. */
  onBody: boolean;
  /** A short description of the focused element: tag, classes, name, text. */
  what: string;
  /** The focused element is the composer's text box. */
  inComposer: boolean;
  /** Index of the `.turn` that holds the focused element (-1: none), and how many turns there are. */
  turn: number;
  turns: number;
  /** The focused element matches the selector given to `focusIn`, if one was given. */
  matches: boolean;
}

/** Where the focus is in the chat frame. */
export function focusIn(frame: Frame, selector = ''): Promise<FocusSpot> {
  return frame.evaluate((sel) => {
    const a = document.activeElement;
    const turns = Array.from(document.querySelectorAll('.turn'));
    const describe = (e: Element | null): string => {
      if (!e) return '(nothing)';
      const cls = e.getAttribute('class') ? `.${e.getAttribute('class')!.trim().split(/\s+/).join('.')}` : '';
      const name = e.getAttribute('aria-label') ?? e.getAttribute('href') ?? '';
      const text = (e.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
      return `<${e.tagName.toLowerCase()}${cls}>${name ? ` "${name}"` : ''}${text && e !== document.body ? ` (${text})` : ''}`;
    };
    return {
      hasFocus: document.hasFocus(),
      onBody: !a || a === document.body || a === document.documentElement,
      what: describe(a),
      inComposer: !!a?.matches('.composer textarea'),
      turn: a ? turns.findIndex((t) => t.contains(a)) : -1,
      turns: turns.length,
      matches: !!sel && !!a?.matches(sel),
    };
  }, selector);
}

/**
 * Presses `key` (Tab or Shift+Tab) until the focused element matches `selector`, at most `max`
 * times; fails when the focus leaves the frame or falls to <body> on the way, or never gets there.
 */
export async function tabTo(page: Page, frame: Frame, selector: string, key: 'Tab' | 'Shift+Tab' = 'Tab', max = 60): Promise<number> {
  const path: string[] = [];
  for (let i = 1; i <= max; i++) {
    await page.keyboard.press(key);
    await page.waitForTimeout(50);
    const at = await focusIn(frame, selector);
    path.push(at.what);
    if (at.matches && at.hasFocus) return i;
    if (!at.hasFocus || at.onBody)
      throw new Error(`${key} left the chat (${at.hasFocus ? 'to <body>' : 'to the workbench'}) before reaching ${selector}; the path: ${path.join(' → ')}`);
  }
  throw new Error(`${max} × ${key} never reached ${selector}; the path: ${path.slice(-12).join(' → ')}`);
}

interface Keybinding {
  command: string;
  key: string;
  when?: string;
}

/** The keybinding package.json ships for `command` (its Linux/Windows key), or undefined. */
export function shippedKeybinding(command: string): Keybinding | undefined {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { contributes?: { keybindings?: Keybinding[] } };
  return pkg.contributes?.keybindings?.find((k) => k.command === command && k.key);
}

const KEY_NAMES: Record<string, string> = {
  ctrl: 'Control',
  shift: 'Shift',
  alt: 'Alt',
  meta: 'Meta',
  cmd: 'Meta',
  win: 'Meta',
  up: 'ArrowUp',
  down: 'ArrowDown',
  left: 'ArrowLeft',
  right: 'ArrowRight',
  enter: 'Enter',
  escape: 'Escape',
  tab: 'Tab',
  space: 'Space',
  pageup: 'PageUp',
  pagedown: 'PageDown',
  home: 'Home',
  end: 'End',
  backspace: 'Backspace',
  delete: 'Delete',
};

/** Presses a VS Code keybinding ("ctrl+alt+d", a chord "ctrl+k ctrl+i") as Playwright key presses. */
export async function pressKeybinding(page: Page, key: string): Promise<void> {
  for (const chord of key.trim().split(/\s+/)) {
    const keys = chord.split('+').map((k) => KEY_NAMES[k.toLowerCase()] ?? (/^f\d+$/i.test(k) ? k.toUpperCase() : k));
    await page.keyboard.press(keys.join('+'));
  }
}
