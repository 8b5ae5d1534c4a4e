import type { Memento } from '../../common/memento';

// The service allows 100 create + follow-up uses per project per hour (service-interface.md §8).
// It does not tell us how many are left, so we count our own uses, in a rolling hour, to warn
// before the user sends past it. Uses from other machines are invisible to us: a 429 still
// gets its own message.

export const AGENT_USES_PER_HOUR = 100;
const HOUR_MS = 60 * 60 * 1000;

export class RateBudget {
  constructor(
    private readonly memento: Memento,
    private readonly key: string,
    private readonly limit = AGENT_USES_PER_HOUR,
    private readonly windowMs = HOUR_MS,
  ) {}

  private uses(now: number): number[] {
    const saved = this.memento.get<unknown>(this.key);
    return Array.isArray(saved) ? saved.filter((t): t is number => typeof t === 'number' && now - t < this.windowMs) : [];
  }

  remaining(now = Date.now()): number {
    return Math.max(0, this.limit - this.uses(now).length);
  }

  /** When the oldest use in the window drops out, i.e. when one more use frees up; undefined while one is free. */
  nextFreeAt(now = Date.now()): number | undefined {
    const uses = this.uses(now);
    if (uses.length < this.limit) return undefined;
    return Math.min(...uses) + this.windowMs;
  }

  async record(now = Date.now()): Promise<void> {
    await this.memento.update(this.key, [...this.uses(now), now]);
  }

  get max(): number {
    return this.limit;
  }
}
