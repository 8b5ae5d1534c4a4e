import type { CallOptions } from './agentClient';
import { keyedJson, adminUrl, optionalFeatureError, type AdminClientOptions, type AdminRequest } from './adminCall';
import { ServiceError } from './errors';
import { parsePreviewDeployment, parsePreviewStatus } from './previewShape';
import type { PreviewDeployment, PreviewStatus } from './types';

// Client for the preview deployment endpoints (notes.md "Preview deployments"), with the admin
// key. They are beyond the interface, so they are detected: a 403 (a plan without previews) or a
// 404 (a service without the endpoint) is `notOffered`, which the caller turns into one quiet
// note and a hidden action. Never retried here: a retried POST is a second deployment, and the
// caller's polling already decides when to ask again.

export type PreviewClientOptions = AdminClientOptions;

const MAX_PREVIEW_BODY_BYTES = 1024 * 1024;

export class PreviewClient {
  private readonly opts: PreviewClientOptions;
  /** 403/404: not offered (one quiet note); a 429 is this endpoint's limit, not the agent jobs' hourly one. */
  private readonly errorFor: AdminRequest['errorFor'];

  constructor(opts: PreviewClientOptions) {
    // Copied, so a later change to the caller's object cannot redirect the key mid-flight.
    this.opts = { ...opts };
    this.errorFor = optionalFeatureError('preview', { service: 'agent', projectId: this.opts.projectId });
  }

  /** POST /v1/project/preview/{projectId} {branch}: starts (or redeploys) the branch's preview. */
  async requestPreview(branch: string, opts: CallOptions = {}): Promise<PreviewDeployment> {
    const url = adminUrl(this.opts, ['v1', 'project', 'preview', this.opts.projectId.trim()]);
    if (branch.trim() === '') throw new ServiceError({ reason: { code: 'badRequest' }, detail: 'branch is empty' });
    const { json } = await keyedJson(this.opts, {
      method: 'POST',
      url,
      body: { branch },
      signal: opts.signal,
      maxBodyBytes: 64 * 1024,
      errorFor: this.errorFor,
    });
    return parsePreviewDeployment(json);
  }

  /** GET /v1/project/update-status/{statusId}: where a deployment is, with its (bounded) logs. */
  async getStatus(statusId: string, opts: CallOptions = {}): Promise<PreviewStatus> {
    const url = adminUrl(this.opts, ['v1', 'project', 'update-status', statusId]);
    const { json } = await keyedJson(this.opts, { method: 'GET', url, signal: opts.signal, maxBodyBytes: MAX_PREVIEW_BODY_BYTES, errorFor: this.errorFor });
    return parsePreviewStatus(json, statusId);
  }
}
