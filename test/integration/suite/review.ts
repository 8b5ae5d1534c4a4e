import * as vscode from 'vscode';
import type { RecordedRequest, RunningEmulator } from '../../emulator';
import { waitFor } from './harness';

// Helpers for the prompt review document (src/agent/vscode/reviewDocument.ts): the untitled Markdown
// editor that holds exactly what the agent gets, with Send to Agent / Cancel in its title bar.
// Not a *.test.ts file, so the suite's loader does not run it as tests.

export const SEND = 'docsAssistant.agent.sendReviewedPrompt';
export const CANCEL = 'docsAssistant.agent.cancelReviewedPrompt';

/** The review editor, once one is active and shows `text` (the draft the command prefilled). */
export function reviewEditor(text: string, timeoutMs = 15_000): Promise<vscode.TextEditor> {
  return waitFor(
    'the prompt to open for review in an untitled Markdown editor',
    () => {
      const e = vscode.window.activeTextEditor;
      return e && e.document.uri.scheme === 'untitled' && e.document.languageId === 'markdown' && e.document.getText() === text ? e : undefined;
    },
    timeoutMs,
  );
}

/** Replaces the whole text of the editor, as a user typing over it would. */
export async function replaceText(editor: vscode.TextEditor, text: string): Promise<void> {
  const doc = editor.document;
  const ok = await editor.edit((b) => b.replace(new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text));
  if (!ok || doc.getText() !== text) throw new Error('Could not edit the review document.');
}

/** What the emulator says it received (its HTTP log, GET /__emulator/requests). */
export async function received(emu: RunningEmulator): Promise<RecordedRequest[]> {
  const res = await fetch(`${emu.url}/__emulator/requests`);
  if (!res.ok) throw new Error(`GET /__emulator/requests answered ${res.status}`);
  return (await res.json()) as RecordedRequest[];
}

/**
 * Runs a command that opens a review document for `draft`, optionally rewrites it, and presses
 * Send to Agent. Returns the command's result.
 */
export async function runSendingReview<T>(draft: string, edited: string | undefined, start: () => PromiseLike<T>): Promise<T> {
  const result = Promise.resolve(start());
  try {
    const editor = await reviewEditor(draft);
    if (edited !== undefined) await replaceText(editor, edited);
    await vscode.commands.executeCommand(SEND);
  } catch (e) {
    // Whatever the command showed instead (the old one-line box) must not outlive the test.
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await result.catch(() => undefined);
    throw e;
  }
  return result;
}
