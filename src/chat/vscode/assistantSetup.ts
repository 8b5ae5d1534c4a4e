import * as vscode from 'vscode';
import { notSetUpError, type SetupState } from '../../assistant/core/setupState';
import type { AgentJobsService } from '../../common/jobs';
import { Disposable } from '../../common/lifecycle';
import type { ChatSnapshot } from '../../common/protocol';
import { errorViewOf } from '../core/turnSteps';

// What the chat adds to a snapshot from outside the conversation: the setup banner, which follows
// the assistant's one readiness (src/assistant/core/setupState.ts) and says what is missing in the
// same words a question asked too early gets, and whether the answer offers "Fix This in the
// Docs", which follows the agent's setup.

export type ChatExtras = Pick<ChatSnapshot, 'agentAvailable' | 'setupHint'>;

export class AssistantSetup extends Disposable {
  constructor(
    private readonly setup: SetupState,
    private readonly agent: Pick<AgentJobsService, 'available' | 'onDidChange'>,
    /** The extras changed: the views need a fresh snapshot. */
    private readonly onDidChange: () => void,
  ) {
    super();
    // The agent's availability (service, project, admin key) decides whether the answer offers Fix This.
    this._register(agent.onDidChange(() => this.onDidChange()));
    this._register(setup.onDidChange(() => this.onDidChange()));
  }

  /** What the snapshot adds to the conversation: the setup banner and whether Fix This is offered. */
  get extras(): ChatExtras {
    const agentAvailable = this.agent.available;
    const status = this.setup.current;
    const problem = status && notSetUpError(status);
    if (!problem) return { agentAvailable };
    const { message, actions } = errorViewOf(problem, vscode.l10n.t, Date.now());
    return { agentAvailable, setupHint: { message, action: actions.includes('setAssistantKey') ? 'setAssistantKey' : 'openSettings' } };
  }
}
