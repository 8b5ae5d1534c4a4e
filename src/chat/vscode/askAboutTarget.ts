import * as vscode from 'vscode';
import type { AskAboutSelectionArgs } from '../../common/commandArgs';
import { newId } from '../../common/ids';
import { resolveCodeTarget } from '../../host/vscode/codeTarget';
import { readConfig } from '../../host/vscode/config';
import { buildContextChip } from '../../host/core/selectionContext';
import type { ChatFocus } from '../core/chatFocus';
import type { ChatController } from './chatController';

// Ask Docs About `symbol` / This (the lightbulb, src/codeActions), or anyone else who runs the
// command with arguments: the range it names, widened to its symbol, joins the composer as a
// chip and the question fills the input box. Nothing is sent until the user presses Send: any
// extension or `command:` link can run this command, and only the user decides what leaves.
// resolveCodeTarget refuses, with a message, a document outside the workspace or not open.

export async function askAboutTarget(controller: ChatController, focus: ChatFocus, args: AskAboutSelectionArgs): Promise<void> {
  const target = await resolveCodeTarget(args);
  if (!target) return;
  const chip = buildContextChip({ ...target, id: newId(), maxChars: readConfig().maxSelectionChars });
  const notAttached = controller.session.fillComposer(chip, args.question);
  await focus.show(args.question);
  if (notAttached) void vscode.window.setStatusBarMessage(vscode.l10n.t('Docs Assistant: {0}', notAttached), 5000);
}
