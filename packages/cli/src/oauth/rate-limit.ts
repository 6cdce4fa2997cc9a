/**
 * Sliding-window counters for what the authorization server lets a stranger try: wrong owner
 * secrets and client registrations, per client address and in total.
 */

/**
 * A counter of events per key over the last `windowMs`.
 *
 * @example
 * const wrongSecrets = createWindowCounter({ limit: 5, windowMs: 15 * 60_000 });
 * wrongSecrets.count("203.0.113.7"); // => 0
 */
interface WindowCounter {
  /** Events of `key` still inside the window. */
  count(key: string): number;
  /** True when `key` reached the limit. */
  full(key: string): boolean;
  /** Records one event of `key`. */
  add(key: string): void;
  /** Forgets the latest event of `key`: an attempt counted before it was known to be right. */
  forgetLatest(key: string): void;
  /** Seconds until `key` has room again (0 when it has). */
  retryAfter(key: string): number;
}

/** Options of {@link createWindowCounter}. */
interface WindowCounterOptions {
  readonly limit: number;
  readonly windowMs: number;
  /** The clock. @default Date.now */
  readonly now?: (() => number) | undefined;
  /** The most keys remembered; the oldest is forgotten beyond it. @default 10000 */
  readonly maxKeys?: number | undefined;
}

/**
 * A {@link WindowCounter}. Memory is bounded: at most `limit` times per key, `maxKeys` keys.
 *
 * @example
 * const total = createWindowCounter({ limit: 20, windowMs: 3_600_000 });
 * total.add("all"); total.count("all"); // => 1
 */
export function createWindowCounter({ limit, windowMs, now = Date.now, maxKeys = 10_000 }: WindowCounterOptions): WindowCounter {
  const events = new Map<string, number[]>();
  const recent = (key: string): number[] => {
    const times = events.get(key);
    if (times === undefined) return [];
    const since = now() - windowMs;
    while (times.length > 0 && times[0]! <= since) times.shift();
    if (times.length === 0) events.delete(key);
    return times;
  };
  return {
    count: (key) => recent(key).length,
    full: (key) => recent(key).length >= limit,
    add(key) {
      const times = recent(key);
      if (times.length === 0) {
        if (events.size >= maxKeys) events.delete(events.keys().next().value!);
        events.set(key, times);
      }
      times.push(now());
      if (times.length > limit) times.shift();
    },
    forgetLatest(key) {
      recent(key).pop();
    },
    retryAfter(key) {
      const times = recent(key);
      if (times.length < limit) return 0;
      return Math.max(1, Math.ceil((times[0]! + windowMs - now()) / 1000));
    },
  };
}
