import type { Selection } from './selection';

// A doc fix handed to the docs agent from VS Code's Chat: agent mode's (or the user's) #fixDocs,
// and @docs /fix through it. The agent feature implements this and src/activation.ts hands it to
// the participant feature, so the features never import each other and there is one way a job
// starts. The rule of every other way holds: the user sees the exact prompt before it is sent
// (here, in the tool's confirmation, which shows promptFor()'s text), and what is sent is that
// text, unchanged.

/** What the tool was asked to hand over, already checked and bounded (src/participant/core/fixDocsTool.ts). */
export interface DelegationRequest {
  /** What the agent should change, in the caller's words. */
  instruction: string;
  /** The passage of the docs it is about, when the caller named one. */
  passage?: Selection;
}

export interface AgentDelegation {
  /**
   * The prompt the agent gets for `request`, built by the agent's own prompt builder
   * (src/agent/core/prompt.ts). Pure: the same request always gives the same text, so the
   * confirmation and the job show one prompt.
   */
  promptFor(request: DelegationRequest): string;
  /**
   * Starts a job with `prompt` exactly as given: the user has just confirmed this text. Resolves
   * with the job's id, or undefined when nothing was sent (not set up, over the hourly limit,
   * cancelled, or the service refused; the user has been told which).
   */
  start(prompt: string, label: string | undefined, signal?: AbortSignal): Promise<{ jobId: string } | undefined>;
}
