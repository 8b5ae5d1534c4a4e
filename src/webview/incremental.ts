import { lexBlocks, renderMarkdown } from './markdown';

// Streaming markdown without re-rendering the whole answer on every delta. The text is cut into
// top-level blocks; every block but the last one that is still growing is rendered once and
// never touched again. Each update re-parses and re-renders only the open tail, so the cost of a
// delta depends on the size of the current block, not of the whole answer.

export interface MarkdownRenderer {
  readonly element: HTMLElement;
  setText(text: string): void;
  append(text: string): void;
  /** Renders what is pending now (normally done once per animation frame). */
  flush(): void;
  readonly text: string;
}

export function createIncrementalMarkdown(element: HTMLElement, schedule: (fn: () => void) => void = requestAnimationFrame): MarkdownRenderer {
  let text = '';
  /** Characters of `text` already rendered into finished blocks. */
  let committed = 0;
  let tail: HTMLElement = document.createElement('div');
  tail.className = 'md-tail';
  element.append(tail);
  let scheduled = false;
  let dirty = false;

  const render = () => {
    scheduled = false;
    if (!dirty) return;
    dirty = false;
    const open = text.slice(committed);
    const tokens = lexBlocks(open);
    // The last block that is not blank space may still grow; everything before it is final.
    let last = tokens.length - 1;
    while (last > 0 && tokens[last]!.type === 'space') last--;
    let consumed = 0;
    for (let i = 0; i < last; i++) consumed += tokens[i]!.raw.length;
    if (consumed > 0) {
      const finished = document.createElement('div');
      finished.className = 'md-block';
      finished.append(renderMarkdown(open.slice(0, consumed)));
      element.insertBefore(finished, tail);
      committed += consumed;
    }
    const rest = text.slice(committed);
    tail.replaceChildren(renderMarkdown(rest));
  };

  const request = () => {
    dirty = true;
    if (scheduled) return;
    scheduled = true;
    schedule(render);
  };

  return {
    element,
    get text() {
      return text;
    },
    setText(next: string) {
      if (next.startsWith(text)) {
        if (next.length > text.length) {
          text = next;
          request();
        }
        return;
      }
      text = next;
      committed = 0;
      element.replaceChildren();
      tail = document.createElement('div');
      tail.className = 'md-tail';
      element.append(tail);
      request();
    },
    append(delta: string) {
      if (!delta) return;
      text += delta;
      request();
    },
    flush() {
      if (dirty) render();
    },
  };
}

/** The approach we compare against in the benchmark: re-render the whole text on every update. */
export function createNaiveMarkdown(element: HTMLElement, schedule: (fn: () => void) => void = requestAnimationFrame): MarkdownRenderer {
  let text = '';
  let dirty = false;
  let scheduled = false;
  const render = () => {
    scheduled = false;
    if (!dirty) return;
    dirty = false;
    element.replaceChildren(renderMarkdown(text));
  };
  const request = () => {
    dirty = true;
    if (!scheduled) {
      scheduled = true;
      schedule(render);
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
  };
}
