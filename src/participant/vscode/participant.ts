import * as vscode from 'vscode';
import type { ServiceError, AssembledMessage } from '../../api';
import type { Assistant } from '../../assistant/core/assistant';
import type { ThreadStore } from '../../assistant/core/threads';
import { newId } from '../../common/ids';
import type { AgentJobsService } from '../../common/jobs';
import type { Log } from '../../host/vscode/log';
import { workspacePath } from '../../host/vscode/workspacePath';
import { AnswerRelay } from '../core/answerRelay';
import { errorResult } from './errorResult';
import { FixDrafts } from '../core/fixDrafts';
import { FIX_DOCS_TOOL } from '../core/fixDocsTool';
import type { FixDocsTool } from './fixDocsTool';
import { messagesFor } from '../core/history';
import { questionContext } from './references';
import { SESSION_KEY, sessionOf } from '../core/session';
import { mdCodeSpan, mdLine } from '../../common/markdown/escape';

// `@docs` in VS Code's Chat view: a question is asked through the extension's one Assistant
// (src/assistant) and its answer streams in (markdown, progress while the service searches,
// sources as references), with a Fix This in the Docs button; `/fix` hands the conversation to
// the docs agent through #fixDocs, whose confirmation shows the exact prompt first. One chat session is one thread of the service: the
// ThreadStore keeps its id and key, by session, out of the history.

export const PARTICIPANT_ID = 'docs-assistant.docs';

export interface ParticipantDeps {
  assistant: Pick<Assistant, 'ask'>;
  log: Log;
  jobs: AgentJobsService;
  threads: ThreadStore;
  drafts: FixDrafts;
  /** #fixDocs, which /fix goes through: it names the job it started for an input. */
  fixDocs: Pick<FixDocsTool, 'jobFor'>;
}

/** What a result keeps in the session's history: the session id and, for Fix This, a draft id. Never a key. */
export interface DocsResultMetadata {
  [SESSION_KEY]: string;
  draft?: string;
  sources?: number;
}

export class DocsParticipant {
  constructor(private readonly deps: ParticipantDeps) {}

  readonly handler: vscode.ChatRequestHandler = (request, context, stream, token) =>
    request.command === 'fix' ? this.fix(request, context, stream, token) : this.ask(request, context, stream, token);

  private async ask(request: vscode.ChatRequest, context: vscode.ChatContext, stream: vscode.ChatResponseStream, token: vscode.CancellationToken) {
    const session = sessionOf(context.history, PARTICIPANT_ID) ?? newId();
    const metadata: DocsResultMetadata = { [SESSION_KEY]: session };
    const question = await questionContext(request.references, vscode.l10n.t);
    const editor = vscode.window.activeTextEditor;
    const asked = {
      selections: question.chips,
      ...(editor ? { currentPath: workspacePath(editor.document.uri) } : {}),
    };

    // Cancel in the Chat view aborts the request; the listener goes with the request.
    const abort = new AbortController();
    const cancel = token.onCancellationRequested(() => abort.abort());
    const relay = new AnswerRelay(
      { markdown: (md) => stream.markdown(md), progress: (p) => stream.progress(p), reference: (url) => stream.reference(vscode.Uri.parse(url, true)) },
      vscode.l10n.t,
    );
    let message: AssembledMessage | undefined;
    let failed: ServiceError | undefined;
    try {
      const messages = messagesFor(context.history, PARTICIPANT_ID, request.prompt);
      for await (const ev of this.deps.assistant.ask({ messages }, asked, { threads: this.deps.threads, conversation: session }, abort.signal)) {
        if (ev.type === 'sending') {
          // What goes with the question, shown as it goes.
          for (const shown of question.shown) stream.reference(shown);
          for (const note of question.notes) stream.progress(mdLine(note));
        } else if (ev.type === 'done') message = ev.message;
        else if (ev.type === 'error') [failed, message] = [ev.error, ev.message];
        else if (ev.type !== 'thread') relay.onChange(ev);
      }
    } finally {
      cancel.dispose();
    }
    relay.finish(message);
    if (failed) {
      if (failed.kind === 'aborted' || token.isCancellationRequested) return { metadata };
      if (failed.reason.code === 'unexpected') this.deps.log.error('@docs: the answer failed', failed);
      return errorResult(failed, stream, metadata, relay.hasText);
    }
    // Offered whether or not the agent is set up yet: right after activation its setup is still
    // being read, and a click on a job that cannot start says what is missing.
    if (message) {
      const draft = this.deps.drafts.add({ question: request.prompt, context: question.chips, answer: relay.text }, session);
      metadata.draft = draft;
      stream.button({ command: FIX_COMMAND, title: vscode.l10n.t('Fix This in the Docs…'), arguments: [draft] });
    }
    return { metadata };
  }

  /**
   * `/fix`: the session's last question and answer (and anything typed after /fix) handed to the
   * docs agent through #fixDocs, so it gets the same confirmation with the exact prompt, and is
   * sent the same way.
   */
  private async fix(
    request: vscode.ChatRequest,
    context: vscode.ChatContext,
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
  ): Promise<vscode.ChatResult> {
    const session = sessionOf(context.history, PARTICIPANT_ID) ?? newId();
    const metadata: DocsResultMetadata = { [SESSION_KEY]: session };
    const draft = this.deps.drafts.fromHistory(context.history, PARTICIPANT_ID, request.prompt);
    if (!draft) {
      stream.markdown(vscode.l10n.t('Ask `@docs` a question first: `/fix` turns its answer into a job for the docs agent.'));
      return { metadata };
    }
    const input = { instruction: draft.draft, title: draft.label };
    // A job an earlier, identical /fix started is not this one's.
    const before = this.deps.fixDocs.jobFor(input);
    try {
      await vscode.lm.invokeTool(FIX_DOCS_TOOL, { input, toolInvocationToken: request.toolInvocationToken }, token);
    } catch (e) {
      // Declined in the confirmation, or the request was cancelled: nothing was sent, which is said below.
      if (!(e instanceof vscode.CancellationError) && !token.isCancellationRequested) this.deps.log.error('@docs /fix: #fixDocs failed', e);
    }
    const jobId = this.deps.fixDocs.jobFor(input);
    if (!jobId || jobId === before) {
      stream.markdown(vscode.l10n.t('Nothing was sent to the agent.'));
      return { metadata };
    }
    stream.markdown(vscode.l10n.t('Started agent job {0}. It is listed under Agent Jobs, where its pull request will appear.', mdCodeSpan(jobId)));
    stream.button({ command: 'docsAssistant.agent.showJob', title: vscode.l10n.t('Show Job'), arguments: [jobId] });
    // The job's branch as it is when clicked: what the agent has changed so far, then all of it (issue 30 §1).
    stream.button({ command: 'docsAssistant.agent.reviewChanges', title: vscode.l10n.t('Review Changes'), arguments: [jobId] });
    return { metadata };
  }
}

/** The command behind an answer's Fix This in the Docs button (hidden from the palette: it needs an answer; registered in index.ts). */
export const FIX_COMMAND = 'docsAssistant.participant.fixAnswer';
