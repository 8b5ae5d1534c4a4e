import * as vscode from 'vscode';
import type { ServiceError } from '../api/errors';
import { describeForUser } from './errorWords';

// A failed service call as a VS Code notification: the words of errorWords.ts in the display
// language, and a button for each fix the notification can run. The features call this instead
// of showing `error.message`, which is plain English for the log.

export interface ErrorNoticeOptions {
  /** Offer Retry, running this. Without it there is no Retry button. */
  retry?: () => unknown;
}

interface Button {
  title: string;
  run: () => unknown;
}

/** The buttons for `err`'s fixes, in the order errorWords.ts gives them. */
function buttonsFor(err: ServiceError, options: ErrorNoticeOptions): { message: string; buttons: Button[] } {
  const words = describeForUser(err, vscode.l10n.t);
  const buttons: Button[] = [];
  for (const fix of words.fixes) {
    if (fix === 'setKey' && words.keyKind === 'admin') {
      buttons.push({ title: vscode.l10n.t('Set Admin API Key'), run: () => vscode.commands.executeCommand('docsAssistant.setAdminKey') });
    } else if (fix === 'setKey' && words.keyKind === 'assistant') {
      buttons.push({ title: vscode.l10n.t('Set Assistant API Key'), run: () => vscode.commands.executeCommand('docsAssistant.setAssistantKey') });
    } else if (fix === 'configure') {
      buttons.push({ title: vscode.l10n.t('Configure Service'), run: () => vscode.commands.executeCommand('docsAssistant.configure') });
    } else if (fix === 'retry' && options.retry) {
      buttons.push({ title: vscode.l10n.t('Retry'), run: options.retry });
    }
  }
  return { message: words.message, buttons };
}

/** Shows `err` as an error notification and runs the fix the user picks. Resolves once it ran. */
export async function showServiceError(err: ServiceError, options: ErrorNoticeOptions = {}): Promise<void> {
  const { message, buttons } = buttonsFor(err, options);
  const pick = await vscode.window.showErrorMessage(vscode.l10n.t('Docs Assistant: {0}', message), ...buttons.map((b) => b.title));
  await buttons.find((b) => b.title === pick)?.run();
}
