import * as vscode from 'vscode';
import { ServiceError } from '../api/errors';
import { messageText } from '../api/reducer';
import { assistantClient, docsSiteName, requestSettings } from '../host/assistantAccess';
import { english } from '../common/l10n';
import { describeForUser } from '../host/errorWords';
import { MAX_QUERY_CHARS, resultText } from './toolResult';
import type { KeyStore } from '../host/secrets';

// `#docs`: the documentation as a language model tool, for agent mode and for users who name it.
// The result is the assistant's answer with its sources, as text, capped: a tool result goes into
// a model's context window, and the answer comes from pages anyone may edit. Each call is a new
// thread (a tool call has no session to continue). When the extension is not set up, the result
// says so and what to run, rather than failing the agent's whole turn.

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
    const query = String(options.input?.query ?? '').slice(0, 120);
    return { invocationMessage: vscode.l10n.t('Asking {0}: “{1}”', docsSiteName(), query) };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<DocsToolInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const query = typeof options.input?.query === 'string' ? options.input.query.trim() : '';
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
          messages: [{ id: 'q', role: 'user', parts: [{ type: 'text', text: query.slice(0, MAX_QUERY_CHARS) }] }],
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
        return result(`${resultText(e.partial, docsSiteName())}\n\n(The answer was cut short.)`);
      const words = e instanceof ServiceError ? describeForUser(e, english).message : String(e);
      return result(`The documentation could not be asked: ${words}`);
    } finally {
      cancel.dispose();
    }
  }
}
