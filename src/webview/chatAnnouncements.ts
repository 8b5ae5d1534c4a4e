import * as l10n from '@vscode/l10n';
import type { AnswerPatch, AnswerStatus, ChatSnapshot, JobCardView } from '../common/protocol';
import { jobStatusText } from './answerLists';
import type { Announcer } from './announcer';

// What a screen reader hears of the conversation, as VS Code's own Chat has it: when an answer
// starts, that the question went out (if VS Code's accessibility.signals.chatRequestSent announces;
// the host reads that setting) and that the docs are being searched; when it ends, the answer once
// (its code summarised), or the error once with the buttons it offers. Nothing while it streams. A
// job card's new state, once. At most three announcements per answer, whatever the renders.

/** What is read of a turn's element (turns.ts). */
export interface AnnouncedTurn {
  readonly answerStatus: AnswerStatus;
  spokenEnd(): string;
}

export class ChatAnnouncements {
  /** The turns seen waiting or streaming in this page: the end of each is said once, when it comes. */
  private readonly ongoing = new Set<string>();
  /** Each job card's state as last shown: a change is said, a card seen for the first time is not. */
  private readonly jobStates = new Map<string, string>();

  constructor(private readonly announcer: Announcer) {}

  /** After snapshot `s` was rendered: `turnOf` gives the element that shows each of its turns. */
  rendered(s: ChatSnapshot, turnOf: (id: string) => AnnouncedTurn | undefined): void {
    for (const t of s.turns) {
      const el = turnOf(t.id);
      if (el) this.turn(t.id, el, s.announceRequestSent);
      this.jobs(t.answer.jobs);
    }
  }

  /** After `patches` were applied to `turn`. */
  patched(id: string, turn: AnnouncedTurn, patches: readonly AnswerPatch[]): void {
    this.turn(id, turn);
    for (const p of patches) if (p.op === 'setJobs') this.jobs(p.jobs);
  }

  /** After `turn` (of id `id`) was rendered or patched. `requestSent`: say that the question went out. */
  private turn(id: string, turn: AnnouncedTurn, requestSent = false): void {
    const s = turn.answerStatus;
    if (s === 'waiting' || s === 'streaming') {
      if (this.ongoing.has(id)) return;
      this.ongoing.add(id);
      // An answer found already streaming (the page was reloaded) has nothing to say until it ends.
      if (s === 'waiting') this.announcer.say(`${requestSent ? l10n.t('Chat request sent.') : ''} ${l10n.t('Searching the docs…')}`);
    } else if (this.ongoing.delete(id)) {
      this.announcer.say(turn.spokenEnd());
    }
  }

  /** After job cards were rendered. */
  private jobs(jobs: readonly JobCardView[]): void {
    for (const j of jobs) {
      // A preview that became ready is news too: said once, like a change of status.
      const state = j.previewUrl ? l10n.t('{0}, preview ready', jobStatusText(j)) : jobStatusText(j);
      const before = this.jobStates.get(j.jobId);
      this.jobStates.set(j.jobId, state);
      if (before !== undefined && before !== state) this.announcer.say(l10n.t('{0}: {1}', j.label, state));
    }
  }
}
