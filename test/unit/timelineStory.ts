import type { TimelineEntry } from '../../src/agent/core/timeline';

/**
 * A timeline as one line per entry, `kind: what` (its time left out, or as minutes since `origin`
 * in front), so that a test reads the story it asserts.
 */
export function story(entries: readonly TimelineEntry[], origin?: number): string[] {
  return entries.map((e) => {
    const when = origin === undefined ? '' : `+${(Date.parse(e.at) - origin) / 60_000}m `;
    return `${when}${e.kind}: ${what(e)}`;
  });
}

function what(e: TimelineEntry): string {
  switch (e.kind) {
    case 'prompt':
    case 'followUp':
      return e.text;
    case 'status':
      return e.status;
    case 'pullRequest':
      return e.url;
    case 'preview':
      return e.url ? `${e.state} ${e.url}` : e.state;
    case 'review':
      return e.files === undefined ? e.action : `${e.action} ${e.files}`;
  }
}
