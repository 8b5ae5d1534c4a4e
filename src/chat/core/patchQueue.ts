import type { AnswerPatch } from '../../common/protocol';

// Streaming updates on their way to the webviews: queued per turn, and sent together when the
// schedule says (postPacer in production), consecutive appends to one part merged into one.

export class PatchQueue {
  private pending = new Map<string, AnswerPatch[]>();
  private scheduled = false;

  constructor(
    private readonly schedule: (fn: () => void) => void,
    private readonly send: (turnId: string, patches: AnswerPatch[]) => void,
  ) {}

  add(turnId: string, patches: AnswerPatch[]): void {
    if (!patches.length) return;
    const list = this.pending.get(turnId);
    if (list) list.push(...patches);
    else this.pending.set(turnId, [...patches]);
    if (!this.scheduled) {
      this.scheduled = true;
      this.schedule(() => this.flush());
    }
  }

  /** Sends everything queued. */
  flush(): void {
    this.scheduled = false;
    const pending = this.pending;
    this.pending = new Map();
    for (const [turnId, patches] of pending) this.send(turnId, mergeAppends(patches));
  }
}

/** Consecutive appends to one part, merged into one. */
export function mergeAppends(patches: AnswerPatch[]): AnswerPatch[] {
  const out: AnswerPatch[] = [];
  for (const p of patches) {
    const prev = out[out.length - 1];
    if (p.op === 'appendText' && prev?.op === 'appendText' && prev.part === p.part) out[out.length - 1] = { ...prev, text: prev.text + p.text };
    else out.push(p);
  }
  return out;
}
