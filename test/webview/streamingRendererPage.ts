import type { BundledPageOptions } from './fixture';

// The streaming renderer (src/webview/incremental.ts) on a page of its own, with the animation
// frames in the test's hands: `__md.frame()` plays one, so a test decides when renders happen.
// `__md.full(text)` is the one-shot render to compare with, and `__normal(root)` the markup
// either shows, without the renderer's wrappers or the blank text between blocks.

const ENTRY = `
import { createIncrementalMarkdown } from './src/webview/incremental';
import { lexBlocks, renderBlocks } from './src/webview/markdown';
const frames = [];
let now = 0;
window.__md = {
  create(el, onRendered) { return createIncrementalMarkdown(el, onRendered, (fn) => frames.push(fn)); },
  frame() { now += 1000 / 60; const q = frames.splice(0); for (const fn of q) fn(now); },
  full(text) { const d = document.createElement('div'); d.append(renderBlocks(lexBlocks(text))); return d; },
};
window.__normal = (root) => {
  const c = root.cloneNode(true);
  for (const w of Array.from(c.querySelectorAll('.md-group, .md-block, .md-tail')).reverse()) w.replaceWith(...w.childNodes);
  c.normalize();
  for (const n of Array.from(c.childNodes)) if (n.nodeType === 3 && !n.data.trim()) n.remove();
  return c.innerHTML;
};
`;

/** withBundledPage's options for the streaming renderer, rendering into `#out`. */
export const STREAMING_RENDERER_PAGE: BundledPageOptions = { entry: ENTRY, body: '<div id="out"></div>' };
