import * as vscode from 'vscode';
import type { ServiceError } from '../../api';
import { describeForUser, type UserError } from '../core/errorWords';

// A failed service call as a VS Code notification: the words of errorWords.ts in the display
// language, and a button for each fix the notification can run. The features call this instead
// of showing `error.message`, which is a terse line for the log (`keyRefused service=agent (HTTP 401)`).

export interface ErrorNoticeOptions {
  /** Offer Retry, running this. Without it there is no Retry button. */
  retry?: () => unknown;
}

interface Button {
  title: string;
  run: () => unknown;
}

/**
 * The commands that carry out the fixes errorWords.ts offers, in its order: set the key it names,
 * configure the service. Retry and a new conversation are the caller's own to offer. Shared by the
 * notifications here and the Chat view's error buttons (src/participant/vscode/errorResult.ts).
 */
export function fixCommands(words: Pick<UserError, 'fixes' | 'keyKind'>): vscode.Command[] {
  const commands: vscode.Command[] = [];
  for (const fix of words.fixes) {
    if (fix === 'setKey' && words.keyKind === 'admin') commands.push({ command: 'docsAssistant.setAdminKey', title: vscode.l10n.t('Set Admin API Key') });
    else if (fix === 'setKey' && words.keyKind === 'assistant')
      commands.push({ command: 'docsAssistant.setAssistantKey', title: vscode.l10n.t('Set Assistant API Key') });
    else if (fix === 'configure') commands.push({ command: 'docsAssistant.configure', title: vscode.l10n.t('Configure Service') });
  }
  return commands;
}

/** The buttons for `err`'s fixes, in the order errorWords.ts gives them, then Retry when offered. */
function buttonsFor(err: ServiceError, options: ErrorNoticeOptions): { message: string; buttons: Button[] } {
  const words = describeForUser(err, vscode.l10n.t);
  const buttons: Button[] = fixCommands(words).map((c) => ({ title: c.title, run: () => vscode.commands.executeCommand(c.command) }));
  if (options.retry && words.fixes.includes('retry')) buttons.push({ title: vscode.l10n.t('Retry'), run: options.retry });
  return { message: words.message, buttons };
}

/** Shows `err` as an error notification and runs the fix the user picks. Resolves once it ran. */
export async function showServiceError(err: ServiceError, options: ErrorNoticeOptions = {}): Promise<void> {
  const { message, buttons } = buttonsFor(err, options);
  const pick = await vscode.window.showErrorMessage(vscode.l10n.t('Docs Assistant: {0}', message), ...buttons.map((b) => b.title));
  await buttons.find((b) => b.title === pick)?.run();
}
