import type { FrameScheduler, MarkdownRenderer } from '../src/webview/incremental';
import { lexBlocks, renderBlocks } from '../src/webview/markdown';
import { standInRenderer } from './standInRenderer';

// What the render benchmark compares the shipped renderer with: the whole text re-rendered on
// every update. bench/render.ts builds the real webview bundle with this in its place; it is
// not part of the extension.

export function createNaiveMarkdown(
  element: HTMLElement,
  onRendered: () => void = () => undefined,
  schedule: FrameScheduler = requestAnimationFrame,
): MarkdownRenderer {
  const render = (text: string) => element.replaceChildren(renderBlocks(lexBlocks(text)));
  return standInRenderer(element, onRendered, schedule, {
    show: render,
    finish: (text, pending) => {
      if (pending) render(text);
    },
  });
}
