import axe from 'axe-core';
import type { Frame } from 'playwright-core';

// axe-core run inside a webview frame, the way the audit ran it. The page's CSP does not
// stop it: CDP evaluation is not script loaded by the page. The rules are WCAG 2.1 A/AA plus
// axe's best practices; a violation of impact minor is the only kind let through.

export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
/** What the issue holds the chat to: none of these. */
export const BLOCKING_IMPACTS = ['critical', 'serious', 'moderate'];

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  nodes: { target: string; summary: string }[];
}

/** The violations axe finds in the frame's document, each with where and why. */
export async function runAxe(frame: Frame): Promise<AxeFinding[]> {
  if (!(await frame.evaluate(() => 'axe' in window))) await frame.evaluate(`${axe.source};0`);
  return frame.evaluate(async (tags) => {
    const run = (window as unknown as { axe: typeof axe }).axe.run;
    const result = await run(document, { runOnly: { type: 'tag', values: tags } });
    const findings = result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? 'unknown',
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: (n.failureSummary ?? '').replace(/\s+/g, ' ').trim() })),
    }));
    // Text drawn in its background's colour (1:1) is no violation to axe but "incomplete" (it
    // could be hidden on purpose): in a chat, that is text nobody can read (issue 29's code in
    // Dark High Contrast). Known to fail, it counts as the contrast failure it is.
    type Contrast = { messageKey?: string; fgColor?: string; bgColor?: string };
    const unreadable = result.incomplete
      .filter((r) => r.id === 'color-contrast')
      .flatMap((r) => r.nodes)
      .filter((n) => n.any.some((c) => (c.data as Contrast | null)?.messageKey === 'equalRatio'));
    if (unreadable.length)
      findings.push({
        id: 'color-contrast (1:1, axe: incomplete)',
        impact: 'serious',
        help: 'Text is drawn in the colour of its background',
        nodes: unreadable.map((n) => {
          const d = n.any.map((c) => c.data as Contrast | null).find((x) => x?.messageKey === 'equalRatio');
          return {
            target: n.target.join(' '),
            summary: `foreground ${d?.fgColor} on background ${d?.bgColor}: ${JSON.stringify((n.html ?? '').slice(0, 80))}`,
          };
        }),
      });
    return findings;
  }, AXE_TAGS);
}

/** The findings that fail the chat (impact moderate or worse). */
export function blocking(findings: AxeFinding[]): AxeFinding[] {
  return findings.filter((f) => BLOCKING_IMPACTS.includes(f.impact));
}

/** One line per failing node: rule, impact, target and axe's own summary of what fails. */
export function describeFindings(findings: AxeFinding[], nodesPerRule = 5): string {
  return findings
    .map((f) => {
      const nodes = f.nodes.slice(0, nodesPerRule).map((n) => `      ${n.target}: ${n.summary}`);
      const more = f.nodes.length > nodesPerRule ? [`      … and ${f.nodes.length - nodesPerRule} more`] : [];
      return [`    ${f.id} (${f.impact}, ${f.nodes.length} node${f.nodes.length === 1 ? '' : 's'}): ${f.help}`, ...nodes, ...more].join('\n');
    })
    .join('\n');
}
