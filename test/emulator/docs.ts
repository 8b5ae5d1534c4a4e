import { Marked } from 'marked';
import { escapeHtml, htmlPage } from './exchange';
import { anchorOf, type DocPage, type DocsIndex } from './retrieval';

// The documentation site itself, as HTML, so that the source links in an answer open a real page
// and land on the section that was quoted.

export class DocsSite {
  private readonly marked = new Marked({
    renderer: {
      heading({ tokens, depth, text }) {
        // The same ids the search gives its passages, so `#anchor` links land on the section.
        return `<h${depth} id="${escapeHtml(anchorOf(text))}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
    },
  });

  constructor(private readonly docs: DocsIndex) {}

  /** HTML for `/docs` or `/docs/<slug>`, or undefined when there is no such page. */
  render(pathname: string): string | undefined {
    const slug = pathname.replace(/^\/docs\/?/, '').replace(/\/+$/, '');
    if (slug === '') return htmlPage('Acme Relay documentation', `<h1>Acme Relay documentation</h1>${this.list()}`, this.nav());
    const page = this.docs.page(slug);
    if (!page) return undefined;
    return htmlPage(`${page.title} · Acme Relay`, `${this.meta(page)}${this.marked.parse(page.markdown, { async: false })}`, this.nav(page));
  }

  /** The emulator's own start page: where things are, for a person who opens the URL. */
  home(info: { projectId: string; domain: string }): string {
    return htmlPage(
      'Local service emulator',
      `<h1>Local service emulator</h1>
<p>This server emulates the documentation agent and assistant service for Docs Assistant.</p>
<ul>
<li>Project id: <code>${escapeHtml(info.projectId)}</code>, domain: <code>${escapeHtml(info.domain)}</code></li>
<li>Agent jobs: <code>POST /v2/agent/{projectId}/job</code>, <code>POST …/job/{id}/message</code>, <code>GET …/job/{id}</code></li>
<li>Assistant: <code>POST /discovery/v2/assistant/{domain}/message</code> (and the deprecated <code>v1</code>)</li>
<li>Docs search and page (assistant key): <code>POST /discovery/v1/search/{domain}</code>, <code>POST /discovery/v1/page/{domain}</code></li>
<li>The documentation it answers from: <a href="/docs">/docs</a></li>
<li>The docs site's MCP server (Streamable HTTP, no key): <code>POST /mcp</code>, tools <code>search</code> and <code>get_page</code></li>
<li>For tests: <a href="/__emulator/requests">/__emulator/requests</a>, <code>POST /__emulator/reset</code>, <a href="/__emulator/health">/__emulator/health</a></li>
</ul>`,
    );
  }

  private list(): string {
    return `<ul>${this.docs.pages
      .map(
        (p) =>
          `<li><a href="/docs/${escapeHtml(p.slug)}">${escapeHtml(p.title)}</a>${p.description ? ` <span class="muted">— ${escapeHtml(p.description)}</span>` : ''}</li>`,
      )
      .join('')}</ul>`;
  }

  private nav(current?: DocPage): string {
    return `<ul>${this.docs.pages
      .map((p) =>
        p === current ? `<li><strong>${escapeHtml(p.title)}</strong></li>` : `<li><a href="/docs/${escapeHtml(p.slug)}">${escapeHtml(p.title)}</a></li>`,
      )
      .join('')}</ul>`;
  }

  private meta(page: DocPage): string {
    const bits = [
      page.version && `version ${page.version}`,
      page.language !== 'en' && `language ${page.language}`,
      page.groups.length > 0 && `groups: ${page.groups.join(', ')}`,
    ].filter((b): b is string => typeof b === 'string');
    return bits.length > 0 ? `<p class="muted">${escapeHtml(bits.join(' · '))}</p>` : '';
  }
}
