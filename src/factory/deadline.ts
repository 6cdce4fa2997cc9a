/**
 * Private helper of the factory: a callback's answer raced against a time limit. The timer is
 * cleared as soon as either side settles and never keeps the process alive; an answer (or a
 * rejection) that arrives after the limit is dropped, and is never an unhandled rejection,
 * because the race has already subscribed to it.
 */

/** What `withDeadline` resolves to when the limit passed first. */
export const TIMED_OUT: unique symbol = Symbol("timed out");

/**
 * The setTimeout ceiling: a delay above 2³¹ − 1 ms fires at once, so a larger limit is misuse.
 */
export const MAX_TIMEOUT_MS = 2_147_483_647;

/** `work`'s value or rejection, or `TIMED_OUT` once `timeoutMs` has passed without either. */
export function withDeadline<T>(work: Promise<T>, timeoutMs: number): Promise<T | typeof TIMED_OUT> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(resolve, timeoutMs, TIMED_OUT);
    (timer as { unref?: () => void }).unref?.();
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
