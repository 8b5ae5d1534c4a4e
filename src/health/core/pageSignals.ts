import type { AssistantConversationRecord, FeedbackEntry, PageFeedbackCounts } from '../../api';
import { visibleText } from '../../common/markdown/plainText';
import { MAX_PAGE_PATH_CHARS, sitePath } from '../../host/core/docsSiteMap';
import type { PageFile, PageSignals } from './readerSignals';

// What readers said, grouped by page: the service names a page as a path or a URL on the site,
// in any spelling (`/quickstart/`, `https://docs…/quickstart#x`), and each spelling lands on one
// page (src/host/core/docsSiteMap.ts). Each page is then mapped to its file; a page that maps to
// none (removed, renamed, or a path too odd to be a file) is listed all the same, under its path
// as the service wrote it (shown as plain, visible text). Linear in the entries: one map.

export interface SignalsInput {
  /** Feedback entries, newest first (signalsFetch). */
  feedback: readonly FeedbackEntry[];
  /** The service's per-page counts, when it offers them: thumbs over every entry, not only those kept. */
  byPage?: readonly PageFeedbackCounts[];
  conversations: readonly AssistantConversationRecord[];
}

/** The page a path names: its normalized site path, or (odd) the path itself, bounded and visible. */
export function pageKey(path: string): string {
  return sitePath(path) ?? visibleText(path.trim()).slice(0, MAX_PAGE_PATH_CHARS);
}

/** Pages ranked by what needs attention: thumbs-down, then comments, then unanswered questions. */
export function groupPages(input: SignalsInput, fileFor: (page: string) => PageFile | undefined): PageSignals[] {
  const pages = new Map<string, PageSignals>();
  const pageOf = (path: string): PageSignals => {
    const key = pageKey(path);
    let p = pages.get(key);
    if (!p) {
      p = { page: key, file: fileFor(key), thumbsUp: 0, thumbsDown: 0, comments: [], snippets: [], unanswered: [] };
      pages.set(key, p);
    }
    return p;
  };
  const countThumbs = input.byPage === undefined;
  for (const e of input.feedback) {
    const p = pageOf(e.path);
    if (e.source === 'code_snippet') p.snippets.push(e);
    else if (e.comment?.trim()) p.comments.push(e);
    if (countThumbs && e.helpful === true) p.thumbsUp++;
    if (countThumbs && e.helpful === false) p.thumbsDown++;
  }
  for (const c of input.byPage ?? []) {
    if (!c.thumbsUp && !c.thumbsDown) continue;
    const p = pageOf(c.path);
    p.thumbsUp += c.thumbsUp;
    p.thumbsDown += c.thumbsDown;
  }
  for (const c of input.conversations) {
    if (c.resolutionStatus !== 'unanswered') continue;
    for (const s of c.sources) {
      const p = pageOf(s.url);
      // A question names a page once, however many of its sources point there.
      if (p.unanswered.at(-1) !== c) p.unanswered.push(c);
    }
  }
  return [...pages.values()].sort(byAttention);
}

function byAttention(a: PageSignals, b: PageSignals): number {
  return (
    b.thumbsDown - a.thumbsDown ||
    b.comments.length - a.comments.length ||
    b.unanswered.length - a.unanswered.length ||
    b.snippets.length - a.snippets.length ||
    (a.page < b.page ? -1 : a.page > b.page ? 1 : 0)
  );
}
