import type { Frame } from 'playwright-core';

// Counts what a screen reader would announce from a webview: mutation batches (one per
// MutationObserver callback, which is what a render is) that add text inside a live region (an
// element with aria-live other than "off", or role status, alert or log) while no ancestor is
// aria-busy, plus a region whose aria-busy went from true to false (its changes are read then).

export interface Announcement {
  /** The text the batch added, cut to 300 characters. */
  text: string;
  /** The added characters in all. */
  chars: number;
}

type Recorder = { announcements: Announcement[] };

/** Starts (or restarts from zero) counting announcements in the frame. */
export async function startCountingAnnouncements(frame: Frame): Promise<void> {
  await frame.evaluate(() => {
    const w = window as unknown as { e2eLive?: Recorder };
    if (w.e2eLive) {
      w.e2eLive.announcements = [];
      return;
    }
    const rec: Recorder = { announcements: [] };
    w.e2eLive = rec;
    const LIVE = '[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"], [role="log"]';
    const region = (el: Element | null): Element | null => {
      for (let e = el; e; e = e.parentElement) {
        if (e.getAttribute('aria-live') === 'off') return null;
        if (e.matches(LIVE)) return e;
      }
      return null;
    };
    new MutationObserver((records) => {
      let text = '';
      let announcing = false;
      for (const r of records) {
        const el = r.target instanceof Element ? r.target : r.target.parentElement;
        if (!el) continue;
        if (r.type === 'attributes') {
          const settled = r.oldValue === 'true' && el.getAttribute('aria-busy') !== 'true';
          if (settled && (region(el) || el.querySelector(LIVE))) announcing = true;
          continue;
        }
        if (!region(el) || el.closest('[aria-busy="true"]')) continue;
        const added = r.type === 'characterData' ? (r.target.textContent ?? '') : Array.from(r.addedNodes, (n) => n.textContent ?? '').join('');
        if (added.trim()) {
          announcing = true;
          text += added;
        }
      }
      if (announcing) rec.announcements.push({ text: text.replace(/\s+/g, ' ').trim().slice(0, 300), chars: text.length });
    }).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeFilter: ['aria-busy'],
      attributeOldValue: true,
    });
  });
}

/** The announcements counted since the last start. */
export function announcements(frame: Frame): Promise<Announcement[]> {
  return frame.evaluate(() => (window as unknown as { e2eLive?: Recorder }).e2eLive?.announcements ?? []);
}

export function describeAnnouncements(list: Announcement[], shown = 8): string {
  const lines = list.slice(0, shown).map((a, i) => `    ${i + 1}. +${a.chars} chars: ${JSON.stringify(a.text.slice(0, 120))}`);
  if (list.length > shown) lines.push(`    … and ${list.length - shown} more`);
  return lines.join('\n');
}
