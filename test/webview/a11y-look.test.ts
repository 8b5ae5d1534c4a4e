import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { TurnView } from '../../src/common/protocol';
import { snapshotWith, withWebview } from './fixture';
import { DARK, HC_DARK, HC_DARK_1_100, HC_LIGHT, LIGHT, WEBVIEW_DEFAULTS } from './themes';

// Issue 29, what a reader sees: code readable in both high-contrast themes, links in text told
// apart by more than colour, no motion for who asked for none, a main landmark with a heading,
// every button named by what it shows, and a job card's label readable in a narrow side bar.

const SHOTS = join(__dirname, '..', '..', 'test-results', 'screenshots');

const CODE_ANSWER = `Change it in \`acme.config.ts\`, or see [the reference](https://docs.acme.test/ref) for more:

| Setting | Default |
|---|---|
| \`connectTimeout\` | 30 s |

\`\`\`ts
export default { connectTimeout: 30_000 };
\`\`\`
`;

function turn(id: string, status: TurnView['answer']['status'], extra: Partial<TurnView['answer']> = {}): TurnView {
  return {
    id,
    question: 'How do I set the timeout?',
    context: [],
    answer: {
      parts: [{ kind: 'text', text: CODE_ANSWER }],
      sources: [{ url: 'https://docs.acme.test/ref', title: 'Reference' }],
      status,
      notices: [],
      jobs: [],
      ...extra,
    },
  };
}

/** The page as VS Code's webview frame shows it: its default styles under the page's, and the theme's class on the body. */
async function asInVsCode(page: Page, bodyClasses: string[]): Promise<void> {
  await page.evaluate(
    ([css, classes]) => {
      // A constructed sheet is CSSOM, not an inline style: the page's CSP allows it, as the frame's own styles.
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
      document.body.classList.add(...classes);
    },
    [WEBVIEW_DEFAULTS, bodyClasses] as const,
  );
}

/**
 * Each element's text colour (or `fg`, e.g. its focus ring's outlineColor) and the colour it is
 * drawn on (backgrounds composited up to an opaque one), and their contrast ratio.
 */
function contrasts(page: Page, selector: string, fg: 'color' | 'outlineColor' = 'color'): Promise<{ text: string; fg: string; bg: string; ratio: number }[]> {
  return page.$$eval(
    selector,
    (els, fgProperty) => {
      const parse = (c: string): [number, number, number, number] => {
        const m = /rgba?\(([^)]+)\)/.exec(c);
        if (!m) throw new Error(`unexpected colour ${c}`);
        const [r, g, b, a] = m[1]!.split(/[\s,/]+/).map(Number);
        return [r!, g!, b!, a ?? 1];
      };
      const over = (top: number[], under: number[]): [number, number, number, number] => {
        const a = top[3]!;
        return [0, 1, 2].map((i) => top[i]! * a + under[i]! * (1 - a)).concat(1) as [number, number, number, number];
      };
      const luminance = (c: number[]): number => {
        const [r, g, b] = c.slice(0, 3).map((v) => {
          const s = v / 255;
          return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
      };
      return els.map((el) => {
        const layers: number[][] = [];
        for (let e: Element | null = el; e; e = e.parentElement) {
          const c = parse(getComputedStyle(e).backgroundColor);
          if (c[3] > 0) layers.push(c);
          if (c[3] === 1) break;
        }
        let bg = [255, 255, 255, 1];
        for (const l of layers.reverse()) bg = over(l, bg);
        // A see-through ancestor (opacity) lets the background show through the text too.
        let opacity = 1;
        for (let e: Element | null = el; e; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
        const color = parse(getComputedStyle(el)[fgProperty]);
        const fg = over([color[0], color[1], color[2], color[3] * opacity], bg);
        const [hi, lo] = [luminance(fg), luminance(bg)].sort((a, b) => b - a);
        const rgb = (c: number[]) => `rgb(${c.slice(0, 3).map(Math.round).join(', ')})`;
        return { text: (el.textContent ?? '').slice(0, 30), fg: rgb(fg), bg: rgb(bg), ratio: (hi! + 0.05) / (lo! + 0.05) };
      });
    },
    fg,
  );
}

describe('chat webview: high contrast, names and landmarks (issue 29)', function () {
  this.timeout(90_000);
  const h = withWebview();

  before(() => mkdirSync(SHOTS, { recursive: true }));

  const THEMES = [
    { name: 'hc-dark-1.100', theme: HC_DARK_1_100, classes: ['vscode-high-contrast'], hc: true },
    { name: 'hc-dark-1.139', theme: HC_DARK, classes: ['vscode-high-contrast'], hc: true },
    { name: 'hc-light', theme: HC_LIGHT, classes: ['vscode-high-contrast', 'vscode-high-contrast-light'], hc: true },
    { name: 'dark-modern', theme: DARK, classes: ['vscode-dark'], hc: false },
    { name: 'light-modern', theme: LIGHT, classes: ['vscode-light'], hc: false },
  ];

  for (const { name, theme, classes, hc } of THEMES)
    it(`code inline, in a table and in a block reads at 4.5:1 or more (${name})`, async () => {
      const page = await h.open(snapshotWith({ turns: [turn('t1', 'done')] }), { theme, width: 320 });
      await asInVsCode(page, classes);
      await h.rendered();
      if (hc) await page.screenshot({ path: join(SHOTS, `a11y-code-${name}.png`), fullPage: true });
      const inline = await contrasts(page, '.markdown p code, .markdown td code');
      const blocks = await contrasts(page, '.markdown pre code');
      assert.deepEqual(
        inline.map((c) => c.text),
        ['acme.config.ts', 'connectTimeout'],
      );
      assert.equal(blocks.length, 1);
      for (const c of [...inline, ...blocks]) assert.ok(c.ratio >= 4.5, `“${c.text}”: ${c.fg} on ${c.bg} is ${c.ratio.toFixed(2)}:1`);
      if (hc) {
        // High-contrast themes outline code, as VS Code outlines its own preformatted text.
        const border = await page.$eval('.markdown p code', (el) => {
          const s = getComputedStyle(el);
          return { width: s.borderTopWidth, style: s.borderTopStyle, color: s.borderTopColor };
        });
        const contrastBorder = await page.evaluate(() => {
          const probe = document.createElement('span');
          probe.style.color = 'var(--vscode-contrastBorder)';
          document.body.append(probe);
          const c = getComputedStyle(probe).color;
          probe.remove();
          return c;
        });
        assert.deepEqual(border, { width: '1px', style: 'solid', color: contrastBorder });
      }
    });

  for (const { name, theme, classes } of THEMES)
    it(`the focus ring of a chip's remove button stands out from the chip at 3:1 or more (${name})`, async () => {
      const page = await h.open(
        snapshotWith({ pendingContext: [{ id: 'k1', type: 'code', path: 'src/app.ts', startLine: 3, endLine: 9, value: 'x', languageId: 'typescript' }] }),
        { theme },
      );
      await asInVsCode(page, classes);
      await page.focus('.chip .icon-button');
      // Focused as the keyboard focuses it, so that :focus-visible applies.
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab');
      const [ring] = await contrasts(page, '.chip .icon-button:focus-visible', 'outlineColor');
      assert.ok(ring, 'the remove button has a visible focus ring');
      assert.ok(ring.ratio >= 3, `the ring ${ring.fg} on the chip's ${ring.bg} is ${ring.ratio.toFixed(2)}:1`);
    });

  for (const { name, theme, classes } of THEMES.filter((t) => t.hc))
    it(`every text in an answer, its job card, an error, the chips and the composer reads at 4.5:1 or more (${name})`, async () => {
      const page = await h.open(
        snapshotWith({
          turns: [
            turn('t1', 'done', {
              jobs: [{ jobId: 'j1', status: 'completed', prLink: 'https://github.com/acme/docs/pull/7', label: 'Fix the timeout default' }],
            }),
            turn('t2', 'stopped'),
            turn('t3', 'error', { error: { message: 'Too many requests.', kind: 'rateLimited', actions: ['setAssistantKey', 'retry'] } }),
          ].map((t) => ({ ...t, context: [{ id: 'c', type: 'code' as const, path: 'src/relay.ts', startLine: 1, endLine: 4, value: 'x' }] })),
          pendingContext: [{ id: 'k1', type: 'textSelection', path: 'docs/a.md', startLine: 1, endLine: 1, value: 'y'.repeat(200), truncatedFrom: 90_000 }],
          draft: 'What about TLS?',
          setupHint: { message: 'Set an assistant key to ask.', action: 'setAssistantKey' },
        }),
        { theme, height: 1600 },
      );
      await asInVsCode(page, classes);
      await h.rendered();
      await page.screenshot({ path: join(SHOTS, `a11y-states-${name}.png`), fullPage: true });
      // Every element that holds text of its own and is shown (a disabled control need not contrast).
      await page.evaluate(() => {
        for (const el of document.querySelectorAll('#app *'))
          if (
            Array.from(el.childNodes).some((n) => n.nodeType === Node.TEXT_NODE && /\S/.test(n.textContent ?? '')) &&
            el.getClientRects().length > 0 &&
            !el.closest('.sr-only, :disabled')
          )
            el.setAttribute('data-text-probe', '');
      });
      const low = (await contrasts(page, '[data-text-probe]')).filter((c) => c.ratio < 4.5);
      assert.deepEqual(
        low.map((c) => `“${c.text}”: ${c.fg} on ${c.bg} is ${c.ratio.toFixed(2)}:1`),
        [],
      );
    });

  it('a link in the answer’s text is underlined, not told apart by colour alone', async () => {
    const page = await h.open(snapshotWith({ turns: [turn('t1', 'done')] }), { theme: HC_DARK });
    await asInVsCode(page, ['vscode-high-contrast']);
    const decoration = await page.$eval('.markdown p a', (a) => getComputedStyle(a).textDecorationLine);
    assert.equal(decoration, 'underline');
  });

  it('a code block that scrolls sideways can be reached by keyboard to scroll it (axe scrollable-region-focusable)', async () => {
    const page = await h.open(snapshotWith({ turns: [turn('t1', 'done')] }), { theme: HC_DARK });
    const pres = await page.$$eval('.markdown pre', (all) => all.map((pre) => pre.tabIndex));
    assert.ok(pres.length > 0, 'the answer has a code block');
    assert.deepEqual(
      pres,
      pres.map(() => 0),
    );
  });

  it('reduced motion (the system’s or VS Code’s) stops the streaming indicator and the spinners', async () => {
    const streaming: TurnView = { ...turn('t1', 'streaming'), answer: { ...turn('t1', 'streaming').answer, parts: [{ kind: 'text', text: 'So far' }] } };
    const waiting: TurnView = { ...turn('t2', 'waiting'), answer: { ...turn('t2', 'waiting').answer, parts: [] } };
    const animations = (page: Page) =>
      page.evaluate(() => ({
        indicator: getComputedStyle(document.querySelector('.streaming-indicator')!).animationName,
        spinner: getComputedStyle(document.querySelector('.waiting .codicon-modifier-spin')!).animationName,
      }));
    const page = await h.open(snapshotWith({ turns: [streaming, waiting], busy: true }));
    const moving = await animations(page);
    assert.notEqual(moving.indicator, 'none', 'it moves when nobody asked otherwise');
    assert.notEqual(moving.spinner, 'none', 'it moves when nobody asked otherwise');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    assert.deepEqual(await animations(page), { indicator: 'none', spinner: 'none' }, 'prefers-reduced-motion');
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await asInVsCode(page, ['vscode-reduce-motion']);
    assert.deepEqual(await animations(page), { indicator: 'none', spinner: 'none' }, 'workbench.reduceMotion (body.vscode-reduce-motion)');
  });

  it('the page is one main landmark under a heading that is the view’s name', async () => {
    for (const snapshot of [snapshotWith(), snapshotWith({ turns: [turn('t1', 'done')], setupHint: { message: 'No key yet.', action: 'setAssistantKey' } })]) {
      const page = await h.open(snapshot);
      assert.equal(await page.locator('main').count(), 1);
      assert.deepEqual(await page.locator('main h1').allTextContents(), ['Ask Docs'], 'the name VS Code shows in the view title (harness title)');
      // Everything shown is inside the landmark (axe: region).
      const outside = await page.evaluate(() =>
        Array.from(document.body.querySelectorAll('*'))
          .filter((el) => !el.closest('main') && !['SCRIPT', 'STYLE'].includes(el.tagName) && el.getClientRects().length > 0)
          .map((el) => el.outerHTML.slice(0, 60)),
      );
      assert.deepEqual(outside, []);
    }
  });

  it('every button and link is named by the text it shows (answer, code, job card, stopped, error, chips)', async () => {
    const turns: TurnView[] = [
      turn('t1', 'done', { jobs: [{ jobId: 'j1', status: 'completed', prLink: 'https://github.com/acme/docs/pull/7', label: 'Fix the timeout default' }] }),
      turn('t2', 'stopped'),
      turn('t3', 'error', {
        error: { message: 'Too many requests.', kind: 'rateLimited', actions: ['setAssistantKey', 'retry', 'openSettings', 'newConversation'] },
      }),
    ];
    const page = await h.open(
      snapshotWith({
        turns,
        pendingContext: [{ id: 'k1', type: 'code', path: 'src/app.ts', startLine: 3, endLine: 9, value: 'x', languageId: 'typescript' }],
        draft: 'What about TLS?',
      }),
    );
    await h.rendered();
    // The name Chromium computes for screen readers and voice control, next to the text shown (none when hidden).
    const cdp = await page.context().newCDPSession(page);
    const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
    const { nodeIds } = await cdp.send('DOM.querySelectorAll', { nodeId: root.nodeId, selector: '#app button, #app a[href]' });
    const shown = await page.$$eval('#app button, #app a[href]', (els) =>
      els.map((el) => (el.getClientRects().length > 0 ? (el as HTMLElement).innerText.trim() : '')),
    );
    assert.equal(nodeIds.length, shown.length);
    const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
    const mismatches: string[] = [];
    for (const [i, nodeId] of nodeIds.entries()) {
      const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
      const name = String(nodes[0]?.name?.value ?? '');
      const [n, v] = [words(name), words(shown[i]!)];
      // axe's label-content-name-mismatch: the shown words, in order, are among the name's.
      const contained = v.length === 0 || n.some((_, at) => v.every((w, j) => n[at + j] === w));
      if (!contained) mismatches.push(`shows “${shown[i]}” but is named “${name}”`);
    }
    await cdp.detach();
    assert.ok(shown.includes('Open PR') && shown.includes('Retry') && shown.includes('Copy'), `the states under test are shown: ${shown.join(' | ')}`);
    assert.deepEqual(mismatches, []);
  });

  it('“Jump to latest” covers nothing of the answer: it sits below the conversation, not over it', async () => {
    const turns = ['t1', 't2', 't3', 't4'].map((id) =>
      turn(id, 'done', { jobs: [{ jobId: id, status: 'completed', prLink: 'https://github.com/acme/docs/pull/7', label: 'Fix it' }] }),
    );
    const page = await h.open(snapshotWith({ turns }), { theme: DARK, width: 300, height: 500 });
    await h.rendered();
    // Scrolled up by the reader: the pill shows, and the last answer's sources and job card are still in reach.
    await page.$eval('.transcript', (t) => t.scrollTo({ top: t.scrollHeight - t.clientHeight - 150 }));
    await page.locator('.jump-to-latest').waitFor({ state: 'visible' });
    const [pill, transcript] = await Promise.all([page.locator('.jump-to-latest').boundingBox(), page.locator('.transcript').boundingBox()]);
    assert.ok(pill && transcript);
    assert.ok(
      pill.y >= transcript.y + transcript.height - 0.5,
      `the pill (top ${pill.y}) is below the conversation (bottom ${transcript.y + transcript.height})`,
    );
  });

  it('a job card’s label stays readable in a 300 px side bar', async () => {
    const jobs = [
      { jobId: 'j1', status: 'completed' as const, prLink: 'https://github.com/acme/docs/pull/7', label: 'Fix the timeout default' },
      { jobId: 'j2', status: 'active' as const, label: 'Document the retry limit of the relay client in the configuration reference' },
    ];
    const page = await h.open(snapshotWith({ turns: [turn('t1', 'done', { jobs })] }), { width: 300 });
    await h.rendered();
    const labels = await page.$$eval('.job-label', (els) =>
      els.map((el) => ({ text: el.textContent, width: el.getBoundingClientRect().width, cut: el.scrollWidth > el.clientWidth + 1 })),
    );
    for (const l of labels) {
      assert.ok(l.width >= 120, `“${l.text}” is ${Math.round(l.width)} px wide`);
      assert.equal(l.cut, false, `“${l.text}” is shown whole`);
    }
    const card = await page.$eval('.job-card', (el) => ({ width: el.scrollWidth, client: el.clientWidth }));
    assert.ok(card.width <= card.client + 1, 'nothing in the card spills out of it');
  });
});
