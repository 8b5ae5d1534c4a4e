import { Disposable } from '../../common/lifecycle';
import { fixPrompt as draftFor } from '../../common/fixPrompt';
import type { AgentJobsService, JobAction } from '../../common/jobs';
import type { JobCardView, TurnView } from '../../common/protocol';
import { answerText } from './answerView';
import type { ChatSession } from './chatSession';

// "Fix This in the Docs" under an answer, and the live job cards it leaves there. The agent
// feature is reached only through the AgentJobsService that activation.ts hands over: a card is
// brought up to date when the service says a job changed, never by polling, and its buttons name
// a job, never a URL.

export class ChatJobCards extends Disposable {
  constructor(
    private readonly jobs: AgentJobsService,
    private readonly session: ChatSession,
  ) {
    super();
    this._register(jobs.onDidChange(() => this.refresh()));
  }

  get available(): boolean {
    return this.jobs.available;
  }

  /** Starts the agent on a turn: the user reviews the prompt first; the job is labelled with the question. */
  async fixInDocs(turnId: string): Promise<void> {
    const turn = this.session.conversation.turns.find((t) => t.id === turnId);
    if (!turn) return;
    const started = await this.jobs.launch({ draft: fixPrompt(turn), label: turn.question });
    if (!started) return;
    const now = this.session.conversation.turns.find((t) => t.id === turnId);
    if (!now) return;
    this.session.setJobs(turnId, [...now.answer.jobs.filter((j) => j.jobId !== started.jobId), this.card(started.jobId, turn.question)]);
  }

  act(jobId: string, action: JobAction): Promise<void> {
    return this.jobs.act(jobId, action);
  }

  /** Every card of the conversation as the service last saw its job; only changed turns are patched. */
  refresh(): void {
    for (const turn of this.session.conversation.turns) {
      if (!turn.answer.jobs.length) continue;
      const next = turn.answer.jobs.map((c) => this.card(c.jobId, c.label));
      if (next.some((c, i) => !sameCard(c, turn.answer.jobs[i]!))) this.session.setJobs(turn.id, next);
    }
  }

  private card(jobId: string, fallbackLabel: string): JobCardView {
    const s = this.jobs.state(jobId);
    if (!s) return { jobId, status: 'unknown', prLink: null, label: fallbackLabel };
    return { jobId, status: s.notFound ? 'unknown' : s.status, prLink: s.prLink, label: s.label, ...(s.previewUrl ? { previewUrl: s.previewUrl } : {}) };
  }
}

function sameCard(a: JobCardView, b: JobCardView): boolean {
  return (
    a.jobId === b.jobId &&
    a.status === b.status &&
    (a.prLink ?? null) === (b.prLink ?? null) &&
    a.label === b.label &&
    (a.previewUrl ?? null) === (b.previewUrl ?? null)
  );
}

/** The draft the user reviews: the question, what they had selected, the answer, and what to do (src/common/fixPrompt.ts). */
export function fixPrompt(turn: TurnView): string {
  return draftFor({ question: turn.question, context: turn.context, answer: answerText(turn.answer) });
}
