import * as vscode from 'vscode';

// The review before anything goes to the agent happens in a real editor: an untitled Markdown
// document holding the prompt, with Send to Agent and Cancel in its title bar. A one-line input
// box could not show a long answer with its selections, and had to mark line breaks with ⏎ and
// turn them back on the way out, so what was sent was not what was shown. Here the document is
// the confirmation: what is sent is its text, character for character, at the moment Send is
// pressed. Nothing is added to it (no header, no trimming); guidance goes in a notification and
// the status bar instead.

// Send to Agent and Cancel are registered in commands.ts ('docsAssistant.agent.sendReviewedPrompt',
// 'docsAssistant.agent.cancelReviewedPrompt') and call send() and cancel() below.

/** URIs of open review documents; package.json shows Send/Cancel when `resource in` it. */
const CONTEXT_KEY = 'docsAssistant.reviewDocuments';

/** One review at a time per purpose: a new job's prompt, or a follow-up. */
export type ReviewPurpose = 'newJob' | 'followUp';

interface OpenReview {
  readonly purpose: ReviewPurpose;
  readonly document: vscode.TextDocument;
  readonly finish: (text: string | undefined) => void;
}

export class PromptReviews implements vscode.Disposable {
  private readonly open = new Map<ReviewPurpose, OpenReview>();
  private readonly status = vscode.window.createStatusBarItem('docsAssistant.promptReview', vscode.StatusBarAlignment.Left, 1000);
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.status.name = vscode.l10n.t('Docs Assistant: Prompt Review');
    this.status.text = `$(send) ${vscode.l10n.t('Send to Agent')}`;
    this.status.tooltip = vscode.l10n.t('Sends this document to the agent exactly as it is. Cancel ($(close) in the title bar) or closing it sends nothing.');
    this.status.command = 'docsAssistant.agent.sendReviewedPrompt';
    this.subscriptions = [
      this.status,
      vscode.workspace.onDidCloseTextDocument((doc) => this.onDidClose(doc)),
      vscode.window.onDidChangeActiveTextEditor(() => this.updateStatus()),
    ];
  }

  /**
   * Opens `draft` for review and resolves with the document's exact text when the user presses
   * Send, or undefined when they cancel, close it, or keep an earlier review of the same purpose.
   * `jobLabel` names the job a follow-up is for.
   */
  async askFinalPrompt(purpose: ReviewPurpose, draft: string, jobLabel = ''): Promise<string | undefined> {
    const earlier = this.open.get(purpose);
    if (earlier) {
      const replace = vscode.l10n.t('Replace');
      const pick = await vscode.window.showWarningMessage(
        purpose === 'newJob'
          ? vscode.l10n.t('A prompt for a new agent job is already open for review. Replace it with this one?')
          : vscode.l10n.t('A follow-up is already open for review. Replace it with this one?'),
        { modal: true, detail: vscode.l10n.t('Replacing closes the open review without sending it. Otherwise it is shown again and this one is dropped.') },
        replace,
      );
      if (pick !== replace) {
        if (this.open.get(purpose) === earlier) await vscode.window.showTextDocument(earlier.document, { preview: false });
        return undefined;
      }
      await this.end(earlier, undefined);
    }

    const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: draft });
    // Registered before the editor shows: a Send or Cancel run the moment it appears must find it
    // (on a loaded machine the integration suite's Cancel came first and waited forever).
    const result = new Promise<string | undefined>((resolve) => this.open.set(purpose, { purpose, document, finish: resolve }));
    await this.updateContext();
    const editor = await vscode.window.showTextDocument(document, { preview: false });
    // Line endings are part of what is sent: keep the draft's \n even where CRLF is the default.
    if (document.eol !== vscode.EndOfLine.LF) await editor.edit((b) => b.setEndOfLine(vscode.EndOfLine.LF));
    this.updateStatus();
    void vscode.window.showInformationMessage(
      purpose === 'newJob'
        ? vscode.l10n.t(
            "Docs Assistant: Review the prompt for the agent, then press Send to Agent in the editor's title bar. Exactly the editor's text is sent; closing it sends nothing.",
          )
        : vscode.l10n.t(
            'Docs Assistant: Review the follow-up for "{0}", then press Send to Agent in the editor\'s title bar. Exactly the editor\'s text is sent; closing it sends nothing.',
            jobLabel,
          ),
    );
    return result;
  }

  /** Send to Agent: the review the command was run on (title bar, palette or status bar). */
  async send(target?: unknown): Promise<void> {
    const review = this.reviewOf(target);
    if (!review) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Docs Assistant: This editor is not a prompt under review, so there is nothing to send.'));
      return;
    }
    const text = review.document.getText();
    if (text.trim() === '') {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('Docs Assistant: The prompt is empty, so nothing was sent. Write what the agent should do, or Cancel.'),
      );
      return;
    }
    await this.end(review, text);
  }

  async cancel(target?: unknown): Promise<void> {
    const review = this.reviewOf(target);
    if (review) await this.end(review, undefined);
  }

  dispose(): void {
    for (const review of this.open.values()) review.finish(undefined);
    this.open.clear();
    void this.updateContext();
    for (const s of this.subscriptions) s.dispose();
  }

  /** The title bar passes the editor's URI; the palette and status bar pass nothing: the active editor. */
  private reviewOf(target: unknown): OpenReview | undefined {
    const uri = target instanceof vscode.Uri ? target : vscode.window.activeTextEditor?.document.uri;
    if (!uri) return undefined;
    return [...this.open.values()].find((r) => r.document.uri.toString() === uri.toString());
  }

  private async end(review: OpenReview, text: string | undefined): Promise<void> {
    if (this.open.get(review.purpose) !== review) return;
    this.open.delete(review.purpose);
    try {
      await this.updateContext();
      await closeWithoutSaving(review.document);
    } finally {
      review.finish(text);
    }
  }

  private onDidClose(doc: vscode.TextDocument): void {
    const review = [...this.open.values()].find((r) => r.document === doc);
    if (!review) return;
    // Changing the language mode closes and reopens the same document in one go; only a document
    // that stays closed cancels its review.
    setTimeout(() => {
      if (doc.isClosed || !vscode.workspace.textDocuments.includes(doc)) void this.end(review, undefined);
    }, 0);
  }

  private async updateContext(): Promise<void> {
    this.updateStatus();
    await vscode.commands.executeCommand(
      'setContext',
      CONTEXT_KEY,
      [...this.open.values()].map((r) => r.document.uri.toString()),
    );
  }

  private updateStatus(): void {
    const doc = vscode.window.activeTextEditor?.document;
    if (doc && [...this.open.values()].some((r) => r.document === doc)) this.status.show();
    else this.status.hide();
  }
}

/** Reverts, then closes: an untitled document is dirty, and closing it plainly would ask to save. */
async function closeWithoutSaving(document: vscode.TextDocument): Promise<void> {
  if (document.isClosed) return;
  const visible = vscode.window.visibleTextEditors.find((e) => e.document === document);
  await vscode.window.showTextDocument(document, { viewColumn: visible?.viewColumn, preview: false, preserveFocus: false });
  // The command acts on the active editor: never let it revert anything but the review.
  if (vscode.window.activeTextEditor?.document === document) await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
}
