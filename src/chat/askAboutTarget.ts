import * as vscode from 'vscode';
import type { AskAboutSelectionArgs } from '../common/commandArgs';
import { newId } from '../common/ids';
import { resolveCodeTarget } from '../host/codeTarget';
import { readConfig } from '../host/config';
import { buildContextChip, isSameSelection } from '../host/selectionContext';
import type { ChatController } from './chatController';
import type { ChatViewProvider } from './chatViews';

// Ask Docs About `symbol` / This (the lightbulb, src/codeActions): the range the action names,
// widened to its symbol, joins the question as a chip, and the question is asked in the Docs
// chat, where the answer streams. When it cannot be asked now (an answer is still streaming, the
// chip does not fit) the chip stays attached and the input has the focus, with the reason shown.

export async function askAboutTarget(controller: ChatController, view: ChatViewProvider, args: AskAboutSelectionArgs): Promise<void> {
  const target = await resolveCodeTarget(args);
  if (!target) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Docs Assistant: Could not read that part of the document.'));
    return;
  }
  const chip = buildContextChip({ ...target, id: newId(), maxChars: readConfig().maxSelectionChars });
  const attached = controller.session.attachChip(chip);
  // The same selection attached before is still the context; anything else that kept it out is said.
  const alreadyThere = !attached.added && controller.store.pendingContext.some((c) => isSameSelection(c, chip));
  await view.reveal();
  const sent = attached.added || alreadyThere ? await controller.session.ask(args.question) : { accepted: false, reason: attached.reason };
  if (!sent.accepted) {
    if (sent.reason) void vscode.window.setStatusBarMessage(vscode.l10n.t('Docs Assistant: {0}', sent.reason), 5000);
    controller.focusInput();
  }
}
