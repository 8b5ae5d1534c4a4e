import type { AgentDelegation, DelegationRequest } from '../../common/delegation';
import { buildAgentPrompt } from '../core/prompt';
import type { AgentActions } from './actions';

// The agent feature as VS Code's Chat hands it a fix (#fixDocs, @docs /fix; src/common/delegation.ts):
// the agent's own prompt around the passage, and the one way a job starts (AgentActions), after
// the same readiness and hourly checks as the palette's. src/activation.ts hands this over.

export class AgentDelegationBridge implements AgentDelegation {
  constructor(private readonly actions: AgentActions) {}

  promptFor(request: DelegationRequest): string {
    return buildAgentPrompt(request.instruction, request.passage);
  }

  async start(prompt: string, label: string | undefined, signal?: AbortSignal): Promise<{ jobId: string } | undefined> {
    const record = await this.actions.guarded('Fix Docs with Agent', () => this.actions.startConfirmed(prompt, label, signal))();
    return record ? { jobId: record.job.id } : undefined;
  }
}
