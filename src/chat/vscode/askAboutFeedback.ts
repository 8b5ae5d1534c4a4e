import * as vscode from 'vscode';
import type { AskAboutFeedbackArgs } from '../../common/commandArgs';
import { newId } from '../../common/ids';
import { visibleText } from '../../common/markdown/plainText';
import { readConfig } from '../../host/vscode/config';
import { buildContextChip } from '../../host/core/selectionContext';
import type { ChatFocus } from '../core/chatFocus';
import type { ChatController } from './chatController';

// Ask Docs About This Feedback (Docs Health, src/health): a reader's comment joins the composer
// as a prose chip named by the page's file, and a question about the page fills the input box.
// The health feature reaches this only through the command and its checked arguments
// (src/common/commandArgs.ts); anyone else can run it too, so nothing is sent until the user
// presses Send, and the reader's words are cut to the chat's longest selection, their hidden
// characters removed, like any untrusted text shown as it is.

export async function askAboutFeedback(controller: ChatController, focus: ChatFocus, args: AskAboutFeedbackArgs): Promise<void> {
  const text = visibleText(args.text);
  // A chip without lines: the words are a reader's about the page, not a passage of the file.
  const {
    startLine: _start,
    endLine: _end,
    ...chip
  } = buildContextChip({
    id: newId(),
    path: args.path ?? args.page,
    startLine: 1,
    endLine: 1,
    languageId: 'markdown',
    text,
    maxChars: readConfig().maxSelectionChars,
  });
  const question = vscode.l10n.t('What should the docs page {0} say to answer this reader feedback?', visibleText(args.page));
  const notAttached = controller.session.fillComposer(chip, question);
  await focus.show(question);
  if (notAttached) void vscode.window.setStatusBarMessage(vscode.l10n.t('Docs Assistant: {0}', notAttached), 5000);
}
