import * as vscode from 'vscode';
import type { ServiceError } from '../../api';
import { mdLine } from '../../common/markdown/escape';
import { fixCommands } from '../../host/vscode/errorMessages';
import { describeForUser } from '../../host/core/errorWords';

// A failed question in the Chat view, or one asked before the assistant is set up: the same
// words as everywhere else (errorWords.ts, in the display language) in the result's errorDetails,
// and a button for each fix the Chat view can run: set the key, configure the service. A wait the
// service asked for is in the words ("Try again after 14:05"). What had arrived stays above it.
// The Chat view renders errorDetails as Markdown, and the words can hold the service's own text
// (a 400's reason), so they go in as text.

export function errorResult<M extends object>(err: ServiceError, stream: vscode.ChatResponseStream, metadata: M, keptPartial: boolean): vscode.ChatResult {
  const words = describeForUser(err, vscode.l10n.t);
  for (const command of fixCommands(words)) stream.button(command);
  const message = keptPartial ? vscode.l10n.t('{0} What arrived is kept above.', words.message) : words.message;
  return { errorDetails: { message: mdLine(message) }, metadata };
}
