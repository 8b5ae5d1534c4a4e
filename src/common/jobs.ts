import type { Event } from './event';

// What the chat needs from the agent feature, and nothing more. src/activation.ts gets it from the
// agent feature and hands it to the chat: the features never import each other, never poll each
// other through commands, and the chat never builds a command id. Commands stay for what the
// user runs.

export type JobStatus = 'active' | 'completed' | 'archived' | 'failed';

/** A job as the chat's live card shows it. Plain data; never a key. */
export interface JobState {
  id: string;
  status: JobStatus;
  prLink: string | null;
  /** What the job is about, as the user knows it: for a job started from the chat, the question. */
  label: string;
  /** The service no longer knows this id. */
  notFound: boolean;
  /** The address of the job's ready preview (http(s) only), when it has one for its branch as it is now. */
  previewUrl?: string;
}

export interface JobLaunch {
  /** The prompt to show for review; the user may edit it, and what they send is what the agent gets. */
  draft: string;
  /** Stored beside the prompt and shown in the tree, notifications and cards. */
  label: string;
}

export type JobAction = 'openPullRequest' | 'followUp' | 'showJob' | 'reviewChanges' | 'checkOutBranch' | 'openPreview';

export interface AgentJobsService {
  /** Whether a job can be started now (service, project and admin key set). */
  readonly available: boolean;
  /**
   * Shows `draft` for review and, once the user sends it, starts the job. Resolves with its id,
   * or undefined when the user cancelled or something was missing (the user has been told).
   */
  launch(request: JobLaunch): Promise<{ jobId: string } | undefined>;
  /** The job as last polled, or undefined if this window does not know it. */
  state(jobId: string): JobState | undefined;
  /** Runs what a card's button asks for, on a job the store holds (never a URL from a message). */
  act(jobId: string, action: JobAction): Promise<void>;
  /** Any job's state changed, or `available` did. */
  readonly onDidChange: Event<void>;
}
