import type { AssistantConversationRecord, SearchRecord } from '../../api';

// The view's lists beside the pages: questions the docs could not answer, the assistant's
// clarifying questions (a sign the docs leave readers unsure what to ask), and searches that many
// readers made and few clicked through. Each list is bounded: the tree shows a ranking, not a log.

/** Items per list. */
export const MAX_LIST_ITEMS = 200;
/** A search is "many hits" from here on. */
export const MIN_SEARCH_HITS = 10;
/** And "low click-through" up to here. */
export const LOW_CTR = 0.25;

const newestFirst = (a: AssistantConversationRecord, b: AssistantConversationRecord): number => timeOf(b.timestamp) - timeOf(a.timestamp);

function timeOf(date: string | null): number {
  const t = date ? Date.parse(date) : NaN;
  return Number.isFinite(t) ? t : 0;
}

/** Questions marked `unanswered`, newest first. */
export function unansweredQuestions(conversations: readonly AssistantConversationRecord[]): AssistantConversationRecord[] {
  return conversations
    .filter((c) => c.resolutionStatus === 'unanswered')
    .sort(newestFirst)
    .slice(0, MAX_LIST_ITEMS);
}

/** The assistant's `clarifying_question` turns, newest first. */
export function clarifyingTurns(conversations: readonly AssistantConversationRecord[]): AssistantConversationRecord[] {
  return conversations
    .filter((c) => c.responseType === 'clarifying_question')
    .sort(newestFirst)
    .slice(0, MAX_LIST_ITEMS);
}

/** Searches with many hits and a low click-through, the most readers left empty-handed first. */
export function lowClickSearches(searches: readonly SearchRecord[]): SearchRecord[] {
  const missed = (s: SearchRecord): number => s.hits * (1 - s.ctr);
  return searches
    .filter((s) => s.hits >= MIN_SEARCH_HITS && s.ctr <= LOW_CTR)
    .sort((a, b) => missed(b) - missed(a))
    .slice(0, MAX_LIST_ITEMS);
}
