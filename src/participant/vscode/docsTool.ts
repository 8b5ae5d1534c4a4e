import * as vscode from 'vscode';
import type { Assistant } from '../../assistant/core/assistant';
import { said } from '../../assistant/core/assistant';
import { docsSiteName } from '../../assistant/vscode/docsSite';
import { invocationMarkdown, queryToSend } from '../core/toolInvocation';
import { failureText, resultText } from '../core/toolResult';

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
  constructor(private readonly assistant: Pick<Assistant, 'ask'>) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<DocsToolInput>): vscode.PreparedToolInvocation {
    // Plain Markdown: not trusted (no command links), no HTML, no theme icons.
    return { invocationMessage: new vscode.MarkdownString(invocationMarkdown(docsSiteName(), queryToSend(options.input), vscode.l10n.t)) };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<DocsToolInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const query = queryToSend(options.input);
    if (!query) return result('The query is empty: pass the question to ask the documentation as `query`.');
    const abort = new AbortController();
    const cancel = token.onCancellationRequested(() => abort.abort());
    try {
      for await (const ev of this.assistant.ask({ messages: [said('q', 'user', query)] }, { selections: [] }, undefined, abort.signal)) {
        if (ev.type === 'done') return result(resultText(ev.message, docsSiteName()));
        if (ev.type === 'error') return result(failureText(ev.error, ev.message, docsSiteName()));
      }
      throw new Error('ask() ended without an answer or an error');
    } finally {
      cancel.dispose();
    }
  }
}
