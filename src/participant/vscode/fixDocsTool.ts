import * as vscode from 'vscode';
import type { AgentDelegation } from '../../common/delegation';
import { FixDocsFlow } from '../core/fixDocsTool';

// `#fixDocs`: agent mode, @docs (its /fix) or the user hands a doc fix to the docs agent. The
// confirmation VS Code shows before invoke holds the exact prompt invoke sends (FixDocsFlow builds
// both from the same input). VS Code shows it in the chat (or, for a call from outside a chat, as
// a modal dialog) and runs invoke only when the user allows it. The job then appears in Agent
// Jobs like any other.

export interface FixDocsToolInput {
  instruction: string;
  title?: string;
  file?: string;
  startLine?: number;
  endLine?: number;
  passage?: string;
}

export class FixDocsTool implements vscode.LanguageModelTool<FixDocsToolInput> {
  private readonly flow: FixDocsFlow;

  constructor(delegation: AgentDelegation) {
    this.flow = new FixDocsFlow(delegation);
  }

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<FixDocsToolInput>): vscode.PreparedToolInvocation {
    const message = this.flow.confirmation(options.input, vscode.l10n.t);
    // Nothing will be sent: no confirmation to ask for; invoke tells the model what to fix.
    if (message === undefined) return { invocationMessage: vscode.l10n.t('Checking the fix for the docs agent') };
    return {
      invocationMessage: vscode.l10n.t('Handing the fix to the docs agent'),
      // Plain Markdown: not trusted (no command links), no HTML, no theme icons.
      confirmationMessages: { title: vscode.l10n.t('Send this prompt to the docs agent?'), message: new vscode.MarkdownString(message) },
    };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<FixDocsToolInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const abort = new AbortController();
    const cancel = token.onCancellationRequested(() => abort.abort());
    try {
      return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(await this.flow.invoke(options.input, abort.signal))]);
    } finally {
      cancel.dispose();
    }
  }

  /** The job this window started for `input`, if any. */
  jobFor(input: unknown): string | undefined {
    return this.flow.jobFor(input);
  }
}
