import { randomBytes } from 'node:crypto';
import type { PreviewState } from '../../src/api/types';
import type { ResolvedOptions } from './config';
import type { DocsSite } from './docs';
import { errorBody, escapeHtml, htmlPage, type Exchange } from './exchange';
import { chooseFault, FAULT_HEADER } from './faults';

// Preview deployments (notes.md "Preview deployments"; beyond the interface, so a client must
// detect them): POST /v1/project/preview/{projectId} {branch} → 202 {statusId, previewUrl}, and
// GET /v1/project/update-status/{statusId}. A deployment goes queued → in_progress → success or
// failure by the wall clock, worked out when it is read (as agent jobs do): no timers run.
// The success URL serves the branch's pages under /preview/<subdomain>/.

export const PREVIEW_TRIGGER = /^\/v1\/project\/preview\/([^/]+)$/;
export const PREVIEW_STATUS = /^\/v1\/project\/update-status\/([^/]+)$/;
export const PREVIEW_SITE = /^\/preview\/([a-z0-9-]+)(?:\/(.*))?$/;
const MINUTE_MS = 60_000;

/**
 * `x-emulator-fault: <mode>` on a preview call. `failure`: the build fails, with logs. The others
 * replace the answer: a plan without previews (403), an older service (404), the limit (429), a
 * broken service, and bodies a client must refuse (`bad-shape`, `hostile-url`, `huge-logs`).
 */
export const PREVIEW_FAULTS = ['failure', '403', '404', '429', '500', 'bad-json', 'bad-shape', 'hostile-url', 'huge-logs', 'other-id'] as const;
export type PreviewFault = (typeof PREVIEW_FAULTS)[number];

/** A branch with this in its name fails to build: the demo's way to see a failure without a header. */
export const FAILING_BRANCH_WORD = 'preview-fail';

interface Deployment {
  id: string;
  branch: string;
  subdomain: string;
  createdAt: number;
  fails: boolean;
  sha: string;
}

/** What a test can do to the previews of a running emulator. */
export interface PreviewControl {
  /** false plays a plan without preview deployments: every preview call answers 403. */
  offer(offered: boolean): void;
  /** While held, no deployment gets past in_progress (a test that must see it running does not race the clock). */
  hold(held: boolean): void;
  /** The next `count` deployments fail, with logs. */
  failNext(count?: number): void;
}

/** Reads a page of a branch (slice emu-git's DocsRepo.readFile once it is there); undefined: not on that branch. */
export type BranchPageReader = (branch: string, pagePath: string) => Promise<string | undefined>;

export class Previews implements PreviewControl {
  private readonly deployments = new Map<string, Deployment>();
  private readonly subdomains = new Map<string, string>();
  private triggers: number[] = [];
  private offered: boolean;
  private held = false;
  private failing = 0;

  constructor(
    private readonly opts: ResolvedOptions,
    private readonly baseUrl: () => string,
    private readonly site: DocsSite,
    private readonly readBranchPage?: BranchPageReader,
  ) {
    this.offered = opts.previews;
  }

  reset(): void {
    this.deployments.clear();
    this.subdomains.clear();
    this.triggers = [];
    this.offered = this.opts.previews;
    this.held = false;
    this.failing = 0;
  }

  offer(offered: boolean): void {
    this.offered = offered;
  }

  hold(held: boolean): void {
    this.held = held;
  }

  failNext(count = 1): void {
    this.failing = count;
  }

  /** Routes the preview endpoints; false when `ex` is not one of them. `keyRefused` answers 401 itself. */
  async route(ex: Exchange, keyRefused: (ex: Exchange) => boolean): Promise<boolean> {
    const path = ex.url.pathname;
    const trigger = PREVIEW_TRIGGER.exec(path);
    const status = PREVIEW_STATUS.exec(path);
    const site = PREVIEW_SITE.exec(path);
    if (site && ex.method === 'GET') {
      await this.serveSite(ex, site[1]!, site[2] ?? '');
      return true;
    }
    if (!trigger && !status) return false;
    if (keyRefused(ex)) return true;
    const fault = chooseFault(ex.header(FAULT_HEADER), '', PREVIEW_FAULTS);
    if (fault && 'unknown' in fault) {
      ex.json(400, errorBody(`Unknown emulator fault "${fault.unknown}". Known: ${PREVIEW_FAULTS.join(', ')}.`));
      return true;
    }
    const mode = fault?.mode;
    if (mode !== undefined && this.answerFault(ex, mode)) return true;
    // The plan decides before anything else is looked at, as a gateway in front of the service would.
    if (!this.offered) {
      ex.json(403, errorBody('Preview deployments are not available on your plan.'));
      return true;
    }
    if (trigger) {
      if (ex.method !== 'POST') ex.json(405, errorBody('Use POST here.'), { allow: 'POST' });
      else if (decodeURIComponent(trigger[1]!) !== this.opts.projectId) ex.json(404, errorBody('Project not found'));
      else this.trigger(ex, mode);
      return true;
    }
    if (ex.method !== 'GET') ex.json(405, errorBody('Use GET here.'), { allow: 'GET' });
    else this.status(ex, decodeURIComponent(status![1]!), mode);
    return true;
  }

  private trigger(ex: Exchange, mode: PreviewFault | undefined): void {
    let body: unknown;
    try {
      body = JSON.parse(ex.rawBody);
    } catch {
      return ex.json(400, errorBody('Request body is not valid JSON.'));
    }
    const branch = typeof body === 'object' && body !== null ? (body as { branch?: unknown }).branch : undefined;
    if (typeof branch !== 'string' || branch.trim() === '') return ex.json(400, errorBody('branch is required and must be a non-empty string.'));
    const now = Date.now();
    this.triggers = this.triggers.filter((t) => t > now - MINUTE_MS);
    if (this.triggers.length >= this.opts.previewRatePerMinute) {
      const retryAfter = Math.max(1, Math.ceil((this.triggers[0]! + MINUTE_MS - now) / 1000));
      return ex.json(429, errorBody(`Rate limit exceeded: ${this.opts.previewRatePerMinute} preview requests per minute.`), {
        'retry-after': String(retryAfter),
      });
    }
    this.triggers.push(now);
    // A branch that has a preview is redeployed at the same address.
    let subdomain = this.subdomains.get(branch);
    if (subdomain === undefined) {
      subdomain = `${
        branch
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-')
          .replace(/^-|-$/g, '')
          .slice(0, 40) || 'branch'
      }-${this.subdomains.size + 1}`;
      this.subdomains.set(branch, subdomain);
    }
    const fails = mode === 'failure' || branch.includes(FAILING_BRANCH_WORD) || this.failing > 0;
    if (this.failing > 0) this.failing--;
    const d: Deployment = {
      id: `upd_${randomBytes(8).toString('hex')}`,
      branch,
      subdomain,
      createdAt: now,
      fails,
      sha: randomBytes(20).toString('hex'),
    };
    this.deployments.set(d.id, d);
    ex.json(202, { statusId: d.id, previewUrl: this.urlOf(subdomain) });
  }

  private status(ex: Exchange, id: string, mode: PreviewFault | undefined): void {
    const d = this.deployments.get(id);
    if (!d) return ex.json(404, errorBody('Update status not found'));
    const state = this.stateOf(d);
    const ended = state === 'success' || state === 'failure';
    const logs = mode === 'huge-logs' ? Array.from({ length: 5000 }, (_, i) => `line ${i}: ${'x'.repeat(100)}`) : this.logsOf(d, state);
    ex.json(200, {
      _id: mode === 'other-id' ? `upd_${randomBytes(8).toString('hex')}` : d.id,
      projectId: this.opts.projectId,
      createdAt: new Date(d.createdAt).toISOString(),
      endedAt: ended ? new Date(d.createdAt + 2 * this.opts.previewStepMs).toISOString() : null,
      status: state,
      summary: state === 'failure' ? 'Build failed: docs.json names a page that does not exist.' : state === 'success' ? 'Preview deployed.' : '',
      logs,
      subdomain: d.subdomain,
      author: 'docs-agent',
      commit: { sha: d.sha, ref: d.branch, message: 'Docs update by the agent' },
    });
  }

  /** Queued for one step, building for the next, then done; held deployments stay building. */
  private stateOf(d: Deployment): PreviewState {
    const elapsed = Date.now() - d.createdAt;
    if (elapsed < this.opts.previewStepMs) return 'queued';
    if (this.held || elapsed < 2 * this.opts.previewStepMs) return 'in_progress';
    return d.fails ? 'failure' : 'success';
  }

  private logsOf(d: Deployment, state: PreviewState): string[] {
    const logs = [`Queued a preview of ${d.branch}`];
    if (state === 'queued') return logs;
    logs.push(`Cloning acme/acme-docs at ${d.branch} (${d.sha.slice(0, 7)})`, 'Reading docs.json', 'Building pages');
    if (state === 'failure') logs.push('Error: docs.json: navigation names "guides/missing-page", but no guides/missing-page.mdx exists', 'Build failed');
    if (state === 'success') logs.push(`Deployed to ${this.urlOf(d.subdomain)}`);
    return logs;
  }

  private urlOf(subdomain: string): string {
    return `${this.baseUrl()}/preview/${subdomain}/`;
  }

  /** The preview site: 404 until its latest deployment succeeded, then the branch's pages. */
  private async serveSite(ex: Exchange, subdomain: string, rest: string): Promise<void> {
    const latest = [...this.deployments.values()].filter((d) => d.subdomain === subdomain).pop();
    if (!latest || this.stateOf(latest) !== 'success') {
      return ex.html(404, htmlPage('Preview not found', '<h1>Preview not found</h1><p>No deployment of this preview has succeeded yet.</p>'));
    }
    const pagePath = rest.replace(/\/+$/, '');
    const banner = `<p><span class="badge">Preview</span> of <code>${escapeHtml(latest.branch)}</code> · <code>${latest.sha.slice(0, 7)}</code></p>`;
    const fromBranch = pagePath && this.readBranchPage ? await this.readBranchPage(latest.branch, pagePath) : undefined;
    if (fromBranch !== undefined) {
      return ex.html(200, htmlPage(`${pagePath} · preview`, `${banner}<pre>${escapeHtml(fromBranch)}</pre>`));
    }
    // Until the emulator's docs are a Git repository, a preview shows the site's pages as they are.
    const html = this.site.render(pagePath ? `/docs/${pagePath}` : '/docs');
    if (html === undefined) return ex.html(404, htmlPage('Page not found', '<h1>Page not found</h1>'));
    ex.html(200, html.replace('<main>', `<main>${banner}`));
  }

  /** Answers as a replacing fault says; true when it did. `failure` only shapes the deployment. */
  private answerFault(ex: Exchange, mode: PreviewFault): boolean {
    switch (mode) {
      case '403':
        ex.json(403, errorBody('Preview deployments are not available on your plan.'));
        return true;
      case '404':
        ex.json(404, { message: 'Not Found' });
        return true;
      case '429':
        ex.json(429, errorBody('Rate limit exceeded.'), { 'retry-after': '2' });
        return true;
      case '500':
        ex.json(500, errorBody('Internal server error'));
        return true;
      case 'bad-json':
        ex.send(202, 'application/json; charset=utf-8', '{"statusId": "upd_');
        return true;
      case 'bad-shape':
        ex.json(ex.method === 'POST' ? 202 : 200, { statusId: 42, status: 'exploded', logs: 'not a list' });
        return true;
      case 'hostile-url':
        if (ex.method !== 'POST') return false;
        ex.json(202, { statusId: `upd_${randomBytes(8).toString('hex')}`, previewUrl: 'javascript:alert(document.domain)' });
        return true;
      default:
        return false;
    }
  }
}
