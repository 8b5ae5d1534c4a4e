import { renderDue } from '../src/webview/cadence';
import { createIncrementalMarkdown, type FrameScheduler, type MarkdownRenderer } from '../src/webview/incremental';
import { standInRenderer } from './standInRenderer';

// What the render budget can be held to: the floors under the shipped renderer, at its own
// cadence (cadence.ts), in the same page. bench/render.ts builds the real webview bundle with one
// of these in its place; they are not part of the extension.
// - `paragraph` > 0: each render appends the new text as it is, plain, to the last of a run of
//   paragraphs of `paragraph` characters (no markdown, no elements but <p>, one text node each):
//   the cheapest change a render can make, so what is left is the browser's own style and layout
//   pass, ten times a second.
// - `paragraph` = 0: nothing is shown until the end: the messages and frames alone.
// Either way the final text is rendered once at the end by the shipped renderer, so the streamed
// DOM still ends up equal to the once-rendered one (the benchmark checks it).

export function createFloorMarkdown(paragraph: number) {
  return (element: HTMLElement, onRendered: () => void = () => undefined, schedule: FrameScheduler = requestAnimationFrame): MarkdownRenderer => {
    let shown = 0;
    let last = -Infinity;
    let node: Text | undefined;
    return standInRenderer(element, onRendered, schedule, {
      show(text) {
        while (paragraph > 0 && shown < text.length) {
          if (!node || node.length >= paragraph) {
            node = document.createTextNode('');
            element.appendChild(document.createElement('p')).appendChild(node);
          }
          const piece = text.slice(shown, shown + paragraph - node.length);
          node.appendData(piece);
          shown += piece.length;
        }
      },
      // The shipped renderer's cadence.
      due(time) {
        if (!renderDue(time - last)) return false;
        last = time;
        return true;
      },
      finish(text) {
        const real = createIncrementalMarkdown(element, onRendered, () => undefined);
        real.setText(text);
        real.finish();
      },
    });
  };
}
