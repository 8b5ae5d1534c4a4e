import * as vscode from 'vscode';
import { describeError } from '../api/errors';
import { formatDelay } from '../api/httpErrors';
import { readConfig } from '../host/config';
import type { AgentJobs } from './agentJobs';
import type { AgentFeature } from './index';
import { firstLine, instructionOf, statusText } from './jobPresentation';
import type { JobRecord } from './jobStore';
import type { JobsTreeElement } from './jobsTreeProvider';
import { buildAgentPrompt, isBlankPrompt, type PromptSelection } from './prompt';
import { askInstruction } from './promptInput';
import { PromptReviews } from './reviewDocument';
import { workspacePath } from '../host/workspacePath';

// Every agent command. Each one catches its own errors and turns them into a message that
// says what to do next: a failing command must never take the extension host down.

/** What the chat (or any caller) may pass to fixDocs: it only prefills, the user confirms. */
export interface FixDocsArgs {
  prompt?: string;
  source?: 'chat';
}

type JobArg = JobsTreeElement | string | undefined;

export function registerAgentCommands(feature: AgentFeature): vscode.Disposable {
  const { keys, log } = feature.services;
  const reviews = new PromptReviews();

  const guarded =
    <A extends unknown[], R>(name: string, fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R | undefined> => {
      try {
        return await fn(...args);
      } catch (e) {
        await showError(name, e);
        return undefined;
      }
    };

  async function showError(what: string, e: unknown): Promise<void> {
    const err = describeError(e, [await keys.get('admin')]);
    if (err.kind === 'aborted') return;
    log.error(`${what} failed`, err);
    const actions: string[] = [];
    if (err.kind === 'unauthorized' || err.kind === 'forbidden') actions.push('Set Admin API Key');
    if (err.kind === 'invalidInput' && /https/.test(err.message)) actions.push('Configure Service');
    let message = err.message;
    if (err.kind === 'rateLimited' && err.retryAfterMs !== undefined && !/try again/i.test(message)) message += ` Try again in ${formatDelay(err.retryAfterMs)}.`;
    const pick = await vscode.window.showErrorMessage(`Docs Assistant: ${message}`, ...actions);
    if (pick === 'Set Admin API Key') await vscode.commands.executeCommand('docsAssistant.setAdminKey');
    if (pick === 'Configure Service') await vscode.commands.executeCommand('docsAssistant.configure');
  }

  /** The jobs of the configured project, after offering to fix whatever is missing. */
  async function ensureReady(): Promise<AgentJobs | undefined> {
    const cfg = readConfig();
    if (!cfg.baseUrl || !cfg.projectId) {
      const pick = await vscode.window.showWarningMessage(
        `Docs Assistant needs the service's ${!cfg.baseUrl ? 'base URL' : 'project ID'} before it can start agent jobs.`,
        'Configure Service…',
      );
      if (pick) await vscode.commands.executeCommand('docsAssistant.configure');
      return undefined;
    }
    if (!(await keys.has('admin'))) {
      const pick = await vscode.window.showWarningMessage('Agent jobs need the admin API key (it starts with "svc_").', 'Set Admin API Key…');
      if (!pick || !(await keys.prompt('admin'))) return undefined;
    }
    return feature.current;
  }

  /** Warns before a use that our own count says is over the hourly limit. */
  async function withinBudget(jobs: AgentJobs): Promise<boolean> {
    if (jobs.budget.remaining() > 0) return true;
    const freeAt = jobs.budget.nextFreeAt();
    const wait = freeAt ? ` One frees up in ${formatDelay(freeAt - Date.now())}.` : '';
    const pick = await vscode.window.showWarningMessage(
      `You have sent ${jobs.budget.max} agent requests for this project in the last hour, the service's limit.${wait} The service will probably refuse this one.`,
      { modal: true },
      'Send Anyway',
    );
    return pick === 'Send Anyway';
  }

  function pickJob(jobs: AgentJobs, placeHolder: string, filter: (r: JobRecord) => boolean = () => true): Promise<JobRecord | undefined> {
    const items = jobs.store
      .all()
      .filter(filter)
      .map((r) => ({ label: firstLine(instructionOf(r.prompt)), description: statusText(r), detail: r.job.id, record: r }));
    if (items.length === 0) {
      void vscode.window.showInformationMessage('Docs Assistant: No agent jobs here yet.');
      return Promise.resolve(undefined);
    }
    return Promise.resolve(vscode.window.showQuickPick(items, { placeHolder, matchOnDetail: true })).then((p) => p?.record);
  }

  async function resolveJob(arg: JobArg, placeHolder: string, filter?: (r: JobRecord) => boolean): Promise<JobRecord | undefined> {
    const jobs = feature.current;
    if (!jobs) return undefined;
    const id = typeof arg === 'string' ? arg : arg?.jobId;
    if (id) return jobs.store.get(id);
    return pickJob(jobs, placeHolder, filter);
  }

  function selectionOfActiveEditor(): PromptSelection | undefined {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.selection.isEmpty) return undefined;
    const { selection, document } = editor;
    return {
      path: workspacePath(document.uri),
      startLine: selection.start.line + 1,
      endLine: selection.end.line + (selection.end.character === 0 && selection.end.line > selection.start.line ? 0 : 1),
      text: document.getText(selection),
      languageId: document.languageId,
    };
  }

  async function reveal(jobId: string): Promise<void> {
    await vscode.commands.executeCommand('docsAssistant.jobsView.focus');
    await feature.view.reveal(feature.tree.elementFor(jobId), { select: true, focus: true, expand: true });
  }

  const fixDocs = guarded('Fix Docs with Agent', async (args?: FixDocsArgs): Promise<{ jobId: string } | undefined> => {
    const jobs = await ensureReady();
    if (!jobs) return undefined;
    let draft: string | undefined;
    if (args && typeof args.prompt === 'string' && args.prompt.trim() !== '') {
      draft = args.prompt;
    } else {
      const instruction = await askInstruction('What should the agent fix in the docs?', 1, 2);
      if (instruction === undefined) return undefined;
      draft = buildAgentPrompt(instruction, selectionOfActiveEditor());
    }
    // The document is the confirmation: no dialog after Send, and its text goes out unchanged.
    const prompt = await reviews.askFinalPrompt('newJob', draft, 'the prompt for the agent');
    if (isBlankPrompt(prompt) || !(await withinBudget(jobs))) return undefined;
    const record = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Docs Assistant: Starting the agent job with your reviewed prompt…', cancellable: true },
      (_p, token) => {
        const ctrl = new AbortController();
        token.onCancellationRequested(() => ctrl.abort());
        return jobs.create(prompt!, ctrl.signal);
      },
    );
    await reveal(record.job.id);
    return { jobId: record.job.id };
  });

  const followUp = guarded('Send Follow-up', async (arg?: JobArg) => {
    const jobs = await ensureReady();
    if (!jobs) return;
    const record = await resolveJob(arg, 'Which job gets the follow-up?', (r) => !r.notFound);
    if (!record) return;
    // A one-line box first, as for a new job: it says what to write, and most follow-ups are
    // short. A long one is written in the review document, which is what is sent either way.
    const label = firstLine(instructionOf(record.prompt), 50);
    const instruction = await askInstruction(`Follow-up for "${label}"`, 1, 2);
    if (isBlankPrompt(instruction)) return;
    const prompt = await reviews.askFinalPrompt('followUp', instruction!.trim(), `the follow-up for "${label}"`);
    if (isBlankPrompt(prompt) || !(await withinBudget(jobs))) return;
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Docs Assistant: Sending your reviewed follow-up to the agent…' }, () => jobs.followUp(record.job.id, prompt!));
    await reveal(record.job.id);
  });

  const openPullRequest = guarded('Open Pull Request', async (arg?: JobArg) => {
    // Only a pull request link the job store holds is opened: callers (the tree, a notification,
    // the chat's job card) name a job, never a URL, so no message can make this open anything else.
    const url = (await resolveJob(arg, 'Open the pull request of which job?', (r) => !!r.job.prLink))?.job.prLink;
    if (!url) return;
    const uri = vscode.Uri.parse(url, true);
    if (uri.scheme !== 'https' && uri.scheme !== 'http') throw new Error(`Not opening ${uri.scheme}: links: only web addresses are opened.`);
    await vscode.env.openExternal(uri);
  });

  const copyPullRequestLink = guarded('Copy Pull Request Link', async (arg?: JobArg) => {
    const url = (await resolveJob(arg, 'Copy the pull request link of which job?', (r) => !!r.job.prLink))?.job.prLink;
    if (url) await vscode.env.clipboard.writeText(url);
  });

  const copyJobId = guarded('Copy Job ID', async (arg?: JobArg) => {
    const record = await resolveJob(arg, 'Copy the id of which job?');
    if (record) await vscode.env.clipboard.writeText(record.job.id);
  });

  const removeJob = guarded('Remove Job', async (arg?: JobArg) => {
    const record = await resolveJob(arg, 'Remove which job from the list?');
    if (!record || !feature.current) return;
    if (record.job.status === 'active' && !record.notFound) {
      const ok = await vscode.window.showWarningMessage('This job is still working. Remove it from the list? The agent keeps running on the service.', { modal: true }, 'Remove');
      if (ok !== 'Remove') return;
    }
    feature.current.remove(record.job.id);
  });

  const showJob = guarded('Show Job', async (arg?: JobArg) => {
    const record = await resolveJob(arg, 'Show which job?');
    if (record) await reveal(record.job.id);
  });

  return vscode.Disposable.from(
    reviews,
    // The title bar of a review document passes its URI; the palette and the status bar pass nothing.
    vscode.commands.registerCommand('docsAssistant.agent.sendReviewedPrompt', guarded('Send to Agent', (target?: unknown) => reviews.send(target))),
    vscode.commands.registerCommand('docsAssistant.agent.cancelReviewedPrompt', guarded('Cancel', (target?: unknown) => reviews.cancel(target))),
    vscode.commands.registerCommand('docsAssistant.setAdminKey', guarded('Set Admin API Key', async () => {
      if (await keys.prompt('admin')) feature.current?.resumePolling();
    })),
    vscode.commands.registerCommand('docsAssistant.clearAdminKey', guarded('Clear Admin API Key', async () => {
      await keys.clear('admin');
      feature.current?.poller.stopAll();
      void vscode.window.showInformationMessage('Docs Assistant: Admin API key cleared. Active jobs are no longer polled.');
    })),
    vscode.commands.registerCommand('docsAssistant.agent.fixDocs', fixDocs),
    vscode.commands.registerCommand('docsAssistant.agent.followUp', followUp),
    vscode.commands.registerCommand('docsAssistant.agent.refresh', guarded('Refresh', async () => {
      if (await ensureReady()) feature.current?.refresh();
      feature.tree.refresh();
    })),
    vscode.commands.registerCommand('docsAssistant.agent.openPullRequest', openPullRequest),
    vscode.commands.registerCommand('docsAssistant.agent.copyPullRequestLink', copyPullRequestLink),
    vscode.commands.registerCommand('docsAssistant.agent.copyJobId', copyJobId),
    vscode.commands.registerCommand('docsAssistant.agent.removeJob', removeJob),
    vscode.commands.registerCommand('docsAssistant.agent.showJob', showJob),
    // Internal: the chat's live job card reads this. Plain data only; never a key.
    vscode.commands.registerCommand('docsAssistant.agent.jobState', (jobId: unknown) => {
      if (typeof jobId !== 'string') return undefined;
      const r = feature.current?.store.get(jobId);
      if (!r) return undefined;
      return { id: r.job.id, status: r.job.status, prLink: r.job.prLink, label: firstLine(instructionOf(r.prompt)), notFound: !!r.notFound };
    }),
  );
}
