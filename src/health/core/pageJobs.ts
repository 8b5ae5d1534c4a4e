import type { Memento } from '../../common/memento';

// Which agent job was started from which page's signals (Fix with Agent…, issue 31), so the page
// can name the job once it finished. Kept in the workspace's state (the pages are this docs
// workspace's), bounded, and read back as untrusted: a record that is not one is skipped.

/** The most records kept; the oldest go first. */
export const MAX_PAGE_JOBS = 200;
/** The most jobs one page names. */
const MAX_JOBS_PER_PAGE = 5;
/** Longer than any page path or job id the service gives. */
const MAX_FIELD_CHARS = 2048;
const MAX_JOB_ID_CHARS = 200;

interface PageJob {
  page: string;
  jobId: string;
}

const isRecord = (r: unknown): r is PageJob => {
  const p = r as Partial<PageJob> | null;
  return (
    !!p &&
    typeof p === 'object' &&
    typeof p.page === 'string' &&
    p.page.length <= MAX_FIELD_CHARS &&
    typeof p.jobId === 'string' &&
    p.jobId !== '' &&
    p.jobId.length <= MAX_JOB_ID_CHARS
  );
};

export class PageJobs {
  static readonly KEY = 'docsAssistant.health.pageJobs';
  /** Oldest first. */
  private records: PageJob[];

  constructor(private readonly memento: Memento) {
    const stored = memento.get<unknown>(PageJobs.KEY);
    this.records = Array.isArray(stored) ? stored.filter(isRecord).slice(-MAX_PAGE_JOBS) : [];
  }

  /** The job `jobId` was started about `page`. */
  async record(page: string, jobId: string): Promise<void> {
    const entry = { page, jobId };
    if (!isRecord(entry)) return;
    this.records = [...this.records.filter((r) => r.jobId !== jobId), entry].slice(-MAX_PAGE_JOBS);
    await this.memento.update(PageJobs.KEY, this.records);
  }

  /** The jobs started about `page`, newest first. */
  jobsFor(page: string): string[] {
    const out: string[] = [];
    for (let i = this.records.length - 1; i >= 0 && out.length < MAX_JOBS_PER_PAGE; i--) if (this.records[i].page === page) out.push(this.records[i].jobId);
    return out;
  }
}
