import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../chromium.mjs';
import { bundleForBrowser } from './bundle';
import { WebviewHarness } from './harness';

export { snapshotWith } from './harness';

// The two ways a suite here gets a page in Chromium, each started in the suite's before() and
// closed in its after(), so that no suite writes its own set-up:
// - withWebview(): the whole chat webview, as the host serves it (harness.ts);
// - withBundledPage(): a blank page with one entry bundled into it, for a module on its own.

const ROOT = join(__dirname, '..', '..');

/** The chat webview for the suite's tests. `configure` sets what the page is served with (image origins) before it starts. */
export function withWebview(configure: (h: WebviewHarness) => void = () => undefined): WebviewHarness {
  const h = new WebviewHarness();
  before(async () => {
    configure(h);
    await h.start();
  });
  after(() => h.stop());
  return h;
}

export interface BundledPageOptions {
  /** TypeScript whose imports are relative to the repository root; what it puts on `window` is what the tests call. */
  entry: string;
  /** The page's body markup. */
  body?: string;
  /** Stylesheets, relative to the repository root. */
  styles?: string[];
  viewport?: { width: number; height: number };
  /** Chromium flags besides the shared ones (test/chromium.ts). */
  chromiumArgs?: string[];
}

/** A blank page with `entry` bundled into it, for the suite's tests; read `.page` inside a test or hook. */
export function withBundledPage(opts: BundledPageOptions): { readonly page: Page } {
  let browser: Browser | undefined;
  let page: Page | undefined;
  before(async () => {
    const script = await bundleForBrowser(opts.entry);
    browser = await launchChromium(opts.chromiumArgs);
    page = await browser.newPage(opts.viewport ? { viewport: opts.viewport } : {});
    await page.setContent(`<!DOCTYPE html><html><body>${opts.body ?? ''}</body></html>`);
    for (const style of opts.styles ?? []) await page.addStyleTag({ path: join(ROOT, style) });
    // tsx compiles the tests with esbuild's keepNames, which wraps functions in __name(); the
    // functions they hand to page.evaluate need that helper in the page too.
    await page.addScriptTag({ content: `globalThis.__name = (f) => f;${script}` });
  });
  after(() => browser?.close());
  return {
    get page(): Page {
      if (!page) throw new Error('withBundledPage: the page is not open (its before() failed or has not run).');
      return page;
    },
  };
}
