import type { Token } from 'marked';
import { rawOf } from './inlinePrefix';
import { lexBlocks } from './lex';
import { renderBlocks, renderPieces, type Piece } from './markdown';
import { renderDue } from './cadence';
import { morphChildren } from './morph';
import { KeptItems } from './keptItems';
import { LinkDefs } from './linkDefs';
import { leadP, leadParagraph, lexAfterSettled, settledOf, type SettledParagraph } from './settledParagraph';
import { fastPathAfterRender, tryFastAppend, type FastPath } from './plainAppend';
import { endsWithBlankLine } from './textScans';
import { LineEnds } from './lineEnds';

// Streaming markdown without re-rendering the whole answer on every delta. The text is cut into
// top-level blocks; every block but the last one, which is still growing, is finished and never
// touched again. Each update re-parses only that open tail (of a paragraph, only what follows its
// settled prefix: inlinePrefix.ts, settledParagraph.ts) and morphs the result into the DOM in place
// (morph.ts), so the cost of an update depends on what changed, not on the size of the answer.
// Reference definitions in the open tail are not final yet: a finished block that names one is
// rendered again when it changes (linkDefs.ts).
//
// Four more things keep updates cheap over a long answer:
// - A list or table keeps the DOM of its items (rows) that did not change (keptItems.ts).
// - A delta that cannot change the tail's structure is appended to its last text node, without
//   markdown or sanitizing (plainAppend.ts). Anything else renders the tail.
// - While an answer streams, the tail is rendered ten times a second (by the frame clock), at
//   every pace, and the first text at once (cadence.ts). A flush (the answer ended, stopped or
//   failed) renders at once.
// - Finished blocks sit in groups of GROUP_SIZE inside one container, so the browser's layout of
//   an update walks a handful of boxes, not one per block of the answer so far.

export interface MarkdownRenderer {
  readonly element: HTMLElement;
  setText(text: string): void;
  append(text: string): void;
  /** Renders what is pending now (normally done once per animation frame). */
  flush(): void;
  /**
   * The text is complete: renders what is pending, and renders the whole text again if a late
   * line changed how an earlier, already finished block reads (see `finish` below).
   */
  finish(): void;
  readonly text: string;
}

const GROUP_SIZE = 16;
const VISIBLE = /[\p{L}\p{N}]/u;
/** Runs `fn` at the next frame, with the frame's time (requestAnimationFrame). */
export type FrameScheduler = (fn: (time: number) => void) => void;

/**
 * `onRendered` runs after each render the frame clock drives, and only then: a frame the throttle
 * skips must not touch the page (a scroll or attribute write there costs a style recalculation).
 * flush() does not call it: its callers (a turn being built, an answer that ended) follow the
 * page themselves once they are done, rather than forcing a layout per part.
 */
export function createIncrementalMarkdown(
  element: HTMLElement,
  onRendered: () => void = () => undefined,
  schedule: FrameScheduler = requestAnimationFrame,
): MarkdownRenderer {
  /** The text with its line ends as marked reads them (lineEnds.ts): block sources add up to it. */
  let text = '';
  const ends = new LineEnds();
  /** Characters of `text` already rendered into finished blocks. */
  let committed = 0;
  /** Characters of `text` the DOM shows. */
  let shown = 0;
  /** Where each finished block ends in `text`. */
  let commits: number[] = [];
  /** Each finished block's element. */
  let blocks: HTMLElement[] = [];
  const defs = new LinkDefs();
  /**
   * Finished blocks may read differently in the whole text (see finish()) if one was finished
   * without a blank line after it by a lex of a shorter text than the final one: the text length
   * from which that is so (Infinity while none was).
   */
  let suspectBelow = Infinity;
  let fast: FastPath | undefined;
  /** When the tail starts with a paragraph: the settled part of it that its DOM shows for good. */
  let settled: SettledParagraph | undefined;
  const kept = new KeptItems();
  let group!: HTMLElement;
  let tail!: HTMLElement;
  let scheduled = false;
  let dirty = false;
  let lastFrameRender = -Infinity;

  const div = (className: string) => {
    const el = document.createElement('div');
    el.className = className;
    return el;
  };
  /** A new, empty tail after the finished blocks, in a new group once the last one is full. */
  const openTail = () => {
    if (group.childElementCount >= GROUP_SIZE) {
      group = div('md-group');
      element.append(group);
    }
    tail = div('md-tail');
    group.append(tail);
  };
  const reset = () => {
    committed = 0;
    shown = 0;
    commits = [];
    blocks = [];
    suspectBelow = Infinity;
    fast = undefined;
    settled = undefined;
    kept.rendered(undefined);
    defs.clear();
    group = div('md-group');
    element.replaceChildren(group);
    openTail();
  };
  reset();

  /**
   * How the tail's DOM comes up to date with `tokens`, the blocks it shows: the pieces to render,
   * what to do with them once rendered, and the inline tokens of the paragraph it starts with. When the tail starts with the paragraph it started
   * with last time, only what follows that paragraph's settled prefix is rendered, and the blocks
   * after the paragraph on their own; otherwise all of it renders (`fresh`: the tail is new and
   * empty). Either way the result is morphed in, so the browser keeps the nodes that did not change.
   */
  const planTail = (tokens: Token[], fresh: boolean): { pieces: Piece[]; apply(rendered: Node[]): void; inline?: Token[] } => {
    const head = tokens.findIndex((t) => t.type !== 'space');
    const inline = leadParagraph(tokens[head])?.tokens;
    const block = fresh ? null : tail.firstElementChild;
    const p = block && block.tagName === (tokens[head]?.type === 'blockquote' ? 'BLOCKQUOTE' : 'P') ? leadP(block) : null;
    // marked writes a newline after each block; the blocks after the paragraph (or its quote) start past it.
    const afterP = block?.nextSibling?.nodeType === Node.TEXT_NODE ? block.nextSibling.nextSibling : undefined;
    const from = settled?.head.length ?? 0;
    if (
      inline &&
      settled &&
      p &&
      afterP !== undefined &&
      inline.length > from &&
      (inline[from - 1] === settled.head.at(-1) || rawOf(inline, from) === settled.raw)
    ) {
      const pFrom = p.childNodes[settled.nodes] ?? null;
      return {
        pieces: [{ inline: inline.slice(from) }, { blocks: tokens.slice(head + 1) }],
        apply: ([rest, after]) => {
          morphChildren(p, rest!, pFrom);
          morphChildren(tail, after!, afterP);
        },
        inline,
      };
    }
    const items = fresh ? undefined : kept.plan(tail.firstElementChild, tokens);
    return items ?? { pieces: [{ blocks: tokens }], apply: ([all]) => morphChildren(tail, all!), inline };
  };

  /** Finished blocks rendered again, each lexed from its own source with the definitions so far, and rendered in one go (renderPieces). */
  const renderAgain = (which: number[]) => {
    const sources = which.map((i) => text.slice(commits[i - 1] ?? 0, commits[i]));
    const rendered = renderPieces(sources.map((source) => ({ blocks: lexBlocks(source, defs.linksFor(source)) })));
    rendered.forEach((node, k) => morphChildren(blocks[which[k]!]!, node));
  };

  const onFrame = (time: number) => {
    scheduled = false;
    if (!dirty) return;
    if (!renderDue(time - lastFrameRender)) {
      scheduled = true;
      schedule(onFrame);
      return;
    }
    // New text with no letter or digit in it (a line break, spaces) often shows nothing: such a
    // render does not hold back the next text, so the screen still changes ten times a second.
    if (VISIBLE.test(text.slice(shown))) lastFrameRender = time;
    render();
    onRendered();
  };

  const render = () => {
    dirty = false;
    if (fast && tryFastAppend(fast, text.slice(shown))) {
      shown = text.length;
      kept.appended();
      return;
    }
    const open = text.slice(committed);
    const links = defs.finishedFor(open);
    const lex = (src: string) =>
      lexBlocks(src, links, (blocks, inline) => {
        const skip = kept.reuse(blocks);
        const lead = leadParagraph(blocks[0]);
        if (lead && lexAfterSettled(lead, settled, inline)) skip.add(lead.tokens);
        return skip;
      });
    const tokens = kept.lexGrown(open, lex) ?? lex(open);
    // A reference definition that came or changed can turn `[text][ref]` in a finished block into a link.
    renderAgain(defs.blocksToRender(tokens.links));
    // The last block that is not blank space may still grow; everything before it is final.
    let last = tokens.length - 1;
    while (last > 0 && tokens[last]!.type === 'space') last--;
    // A number or bullet alone after a list may start its next item (the `2` of `2.`) or go on
    // with its last one (the `*` of `**bold**`): the list stays open until the line says which.
    if (last > 0 && /^ {0,3}(\d{1,9}|[-+*])$/.test(tokens[last]!.raw)) {
      let previous = last - 1;
      while (previous > 0 && tokens[previous]!.type === 'space') previous--;
      if (tokens[previous]!.type === 'list') last = previous;
    }
    let consumed = 0;
    for (let i = 0; i < last; i++) consumed += tokens[i]!.raw.length;
    // The tail's DOM already shows the blocks that are now finished (all but their last few
    // characters, and perhaps the start of the next block): it becomes their finished block,
    // brought up to date in place, so the browser keeps the boxes it has laid out for them. The
    // blocks after them go into a new tail. Both render in one go (renderPieces).
    const finishing = consumed > 0 ? planTail(tokens.slice(0, last), false) : undefined;
    const growingTokens = consumed > 0 ? tokens.slice(last) : tokens;
    const growing = planTail(growingTokens, consumed > 0);
    const rendered = renderPieces([...(finishing?.pieces ?? []), ...growing.pieces]);
    if (finishing) {
      const source = open.slice(0, consumed);
      if (!endsWithBlankLine(source)) suspectBelow = Math.min(suspectBelow, text.length + 1);
      finishing.apply(rendered.splice(0, finishing.pieces.length));
      tail.className = 'md-block';
      blocks.push(tail);
      openTail();
      committed += consumed;
      commits.push(committed);
      defs.finish(source, blocks.length - 1);
    }
    growing.apply(rendered);
    kept.rendered(growingTokens);
    settled = growing.inline ? settledOf(leadP(tail.firstElementChild), growing.inline, settled) : undefined;
    const rest = text.slice(committed);
    shown = text.length;
    fast = fastPathAfterRender(tail, rest);
  };

  const request = () => {
    dirty = true;
    if (scheduled) return;
    scheduled = true;
    schedule(onFrame);
  };

  return {
    element,
    get text() {
      return ends.sent(text);
    },
    setText(next: string) {
      const sent = ends.sent(text);
      if (next.startsWith(sent)) {
        if (next.length > sent.length) {
          text += ends.add(next.slice(sent.length), text);
          request();
        }
        return;
      }
      ends.clear();
      text = ends.add(next, '');
      lastFrameRender = -Infinity;
      reset();
      request();
    },
    append(delta: string) {
      if (!delta) return;
      text += ends.add(delta, text);
      request();
    },
    flush() {
      if (dirty) render();
    },
    // Blocks are finished while the text streams, when the next one starts. A few later lines
    // can still change how earlier ones read in the whole text, when blocks are written without
    // blank lines between them: a setext underline or a lazy line joins the block above it. (A
    // reference definition is caught as it arrives, by render(); the blocks naming it that no
    // render had room for are rendered again now.) So once the text is complete, if any finished
    // block is suspect, the text is lexed whole, once: if its blocks do not line up with the
    // finished ones, it is rendered again whole. (Raw HTML, which could reach across blocks, is
    // text: marked yields no `html` token here, see markdown.ts.)
    finish() {
      if (dirty) render();
      renderAgain(defs.takePending());
      if (text.length < suspectBelow) return;
      suspectBelow = Infinity;
      const whole = lexBlocks(text);
      const ends = new Set<number>();
      let at = 0;
      for (const t of whole) ends.add((at += t.raw.length));
      if (commits.every((c) => ends.has(c))) return;
      reset();
      morphChildren(tail, renderBlocks(whole));
      shown = text.length;
    },
  };
}
