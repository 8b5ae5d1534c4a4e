import * as vscode from 'vscode';
import { ServiceError } from '../../api/errors';
import { messageText } from '../../api/reducer';
import { assistantClient, docsSiteName, requestSettings } from '../../host/vscode/assistantAccess';
import { invocationMarkdown, queryToSend } from '../core/toolInvocation';
import { resultText, toolErrorText } from '../core/toolResult';
import type { KeyStore } from '../../host/vscode/secrets';

// `#docs`: the documentation as a language model tool, for agent mode and for users who name it.
// The result is the assistant's answer with its sources, capped, inside a block marked as the
// docs service's untrusted text (toolResult.ts): a tool result goes into a model's context
// window, and the answer comes from pages anyone may edit. A failure is told in the extension's
// own words, never the service's. Each call is a new thread (a tool call has no session to
// continue). When the extension is not set up, the result says so and what to run, rather than
// failing the agent's whole turn. The invocation message shows the query that is sent, as text.

export const TOOL_NAME = 'docs-assistant_searchDocs';

export interface DocsToolInput {
  query: string;
}

function result(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

export class DocsTool implements vscode.LanguageModelTool<DocsToolInput> {
  constructor(private readonly keys: KeyStore) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<DocsToolInput>): vscode.PreparedToolInvocation {
    // Plain Markdown: not trusted (no command links), no HTML, no theme icons.
    return { invocationMessage: new vscode.MarkdownString(invocationMarkdown(docsSiteName(), queryToSend(options.input), vscode.l10n.t)) };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<DocsToolInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const query = queryToSend(options.input);
    if (!query) return result('The query is empty: pass the question to ask the documentation as `query`.');
    const client = await assistantClient(this.keys);
    if ('problem' in client) {
      // This goes to the model, which tells the user; the fix is named by its command's title.
      return result(
        `Docs Assistant is not set up, so the documentation could not be asked: ${client.problem} ` +
          `Tell the user to run "${client.action === 'setAssistantKey' ? 'Docs Assistant: Set Assistant API Key' : 'Docs Assistant: Configure Service'}".`,
      );
    }
    const abort = new AbortController();
    const cancel = token.onCancellationRequested(() => abort.abort());
    const settings = await requestSettings();
    try {
      const answer = client.send(
        {
          fp: settings.fp,
          messages: [{ id: 'q', role: 'user', parts: [{ type: 'text', text: query }] }],
          threadId: null,
          retrievalPageSize: settings.retrievalPageSize,
          filter: settings.filter,
        },
        { signal: abort.signal },
      );
      let step = await answer.next();
      while (!step.done) step = await answer.next();
      return result(resultText(step.value, docsSiteName()));
    } catch (e) {
      if (e instanceof ServiceError && e.partial && messageText(e.partial).trim())
        return result(resultText(e.partial, docsSiteName(), undefined, 'The answer was cut short.'));
      return result(toolErrorText(e));
    } finally {
      cancel.dispose();
    }
  }
}
