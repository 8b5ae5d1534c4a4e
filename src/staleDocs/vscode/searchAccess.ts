import * as vscode from 'vscode';
import { SearchClient, ServiceError } from '../../api';
import type { AssistantService } from '../../assistant/vscode/assistantService';
import { notSetUpError } from '../../assistant/core/setupState';
import { onDidChangeConfig, readConfig } from '../../host/vscode/config';
import { Disposable } from '../../common/lifecycle';
import type { Log } from '../../host/vscode/log';
import type { KeyStore } from '../../host/vscode/secrets';
import { assistantSearcher, chooseSearcher, searchEndpointSearcher } from '../core/docsSearchers';
import type { DocsSearcher } from '../core/staleDocs';
import type { ReadPage } from '../core/staleSearch';

// How a check searches the docs: the service's search endpoint with the ASSISTANT key (never the
// admin key), falling back to the assistant's answer and its sources where the service does not
// offer search (core/docsSearchers.ts remembers that for the session and the result says so).
// One client and one searcher per settings and key, made again when either changes; the
// readiness is the assistant's own (SetupState), so "not set up" is said in its words.

export class SearchAccess extends Disposable {
  private made: { searcher: DocsSearcher; client: SearchClient } | undefined;

  constructor(
    private readonly keys: KeyStore,
    private readonly assistant: AssistantService,
    private readonly log: Log,
  ) {
    super();
    this._register(onDidChangeConfig(() => (this.made = undefined)));
    this._register(keys.onDidChange((kind) => kind === 'assistant' && (this.made = undefined)));
  }

  /** The session's searcher, or the error that says what is not set up. */
  async searcher(): Promise<DocsSearcher | ServiceError> {
    const made = await this.make();
    return made instanceof ServiceError ? made : made.searcher;
  }

  /** The page endpoint, until the service says it does not offer it (then the search's passages are used). */
  readonly pageEndpoint: ReadPage = async (path, signal) => {
    const made = this.made;
    if (!made || made.searcher.via !== 'search') return undefined;
    try {
      return (await made.client.page({ path }, { signal })).content;
    } catch (e) {
      if (e instanceof ServiceError && e.reason.code !== 'aborted') return undefined;
      throw e;
    }
  };

  private async make(): Promise<{ searcher: DocsSearcher; client: SearchClient } | ServiceError> {
    if (this.made) return this.made;
    const cfg = readConfig();
    const apiKey = (await this.keys.get('assistant')) ?? '';
    const problem = notSetUpError(this.assistant.setup.current ?? { configured: false, missing: 'baseUrl', reason: { code: 'baseUrlMissing' } });
    if (problem || !apiKey) return problem ?? new ServiceError({ reason: { code: 'keyMissing', keyKind: 'assistant' } });
    const client = new SearchClient({
      baseUrl: cfg.baseUrl,
      domain: cfg.domain,
      apiKey,
      requestTimeoutMs: cfg.requestTimeoutMs,
      streamIdleTimeoutMs: cfg.streamIdleTimeoutMs,
    });
    const searcher = chooseSearcher({
      endpoint: searchEndpointSearcher(client, { filter: cfg.filter ?? undefined }),
      assistant: assistantSearcher(this.assistant.assistant),
      // Said once, quietly, in the log; the view says it above every result that used the assistant.
      noteFallback: (note) => this.log.info(`Check Docs for My Changes: ${note}`),
      t: vscode.l10n.t,
    });
    this.made = { searcher, client };
    return this.made;
  }
}
