import * as vscode from 'vscode';
import { isCodeTarget } from '../../common/commandArgs';
import { resolveCodeTarget } from '../../host/vscode/codeTarget';
import { buildAgentPrompt } from '../core/prompt';

// Fix This in the Docs… / Fix the Docs for `symbol`… (the lightbulb, src/codeActions): the draft
// the user reviews names the file, the lines, the text and the symbol, and says what to do; the
// user adds what is wrong before sending. Like the agent's other prompts it stays in English.

/**
 * What docsAssistant.agent.fixDocs launches with: a draft from a code action's arguments, or
 * nothing (ask as before); undefined when the arguments name a document the command may not read
 * (outside the workspace, not open in an editor) or cannot: resolveCodeTarget said so, and no
 * review opens.
 */
export async function launchRequestFor(args: unknown): Promise<{ draft?: string; label?: string } | undefined> {
  if (!isCodeTarget(args)) return {};
  const target = await resolveCodeTarget(args);
  if (!target) return undefined;
  const lines = target.startLine === target.endLine ? `${target.startLine}` : `${target.startLine}-${target.endLine}`;
  const instruction = target.symbol
    ? `Update the documentation of \`${target.symbol}\` so that it matches this code. What is wrong or missing:`
    : 'Fix this passage of the documentation. What is wrong or missing:';
  return {
    draft: buildAgentPrompt(instruction, target),
    label: target.symbol ? vscode.l10n.t('Fix the docs for `{0}`', target.symbol) : vscode.l10n.t('Fix {0}:{1}', target.path, lines),
  };
}
