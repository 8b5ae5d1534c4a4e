import type { FrameScheduler, MarkdownRenderer } from '../src/webview/incremental';
import { lexBlocks, renderBlocks } from '../src/webview/markdown';

// What the render benchmark compares the shipped renderer with: the whole text re-rendered on
// every update. bench/render.ts builds the real webview bundle with this in its place; it is
// not part of the extension.

export function createNaiveMarkdown(
  element: HTMLElement,
  onRendered: () => void = () => undefined,
  schedule: FrameScheduler = requestAnimationFrame,
): MarkdownRenderer {
  let text = '';
  let dirty = false;
  let scheduled = false;
  const render = () => {
    dirty = false;
    element.replaceChildren(renderBlocks(lexBlocks(text)));
  };
  const onFrame = () => {
    scheduled = false;
    if (!dirty) return;
    render();
    onRendered();
  };
  const request = () => {
    dirty = true;
    if (!scheduled) {
      scheduled = true;
      schedule(onFrame);
    }
  };
  return {
    element,
    get text() {
      return text;
    },
    setText(next: string) {
      text = next;
      request();
    },
    append(delta: string) {
      text += delta;
      request();
    },
    flush() {
      if (dirty) render();
    },
    finish() {
      if (dirty) render();
    },
  };
}
