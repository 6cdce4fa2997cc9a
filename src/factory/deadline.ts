/**
 * Private helper of the factory: a callback's answer raced against a time limit, and the signal
 * that tells the callback to stop. The timer is cleared as soon as either side settles and never
 * keeps the process alive; an answer (or a rejection) that arrives after the limit is dropped,
 * and is never an unhandled rejection, because the race has already subscribed to it.
 */

/** What `withDeadline` resolves to when the limit passed first. */
export const TIMED_OUT: unique symbol = Symbol("timed out");

/**
 * The setTimeout ceiling: a delay above 2³¹ − 1 ms fires at once, so a larger limit is misuse.
 */
export const MAX_TIMEOUT_MS = 2_147_483_647;

/** `work`'s value or rejection, or `TIMED_OUT` once `timeoutMs` has passed without either; `onTimeout` runs then. */
export function withDeadline<T>(work: Promise<T>, timeoutMs: number, onTimeout?: () => void): Promise<T | typeof TIMED_OUT> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => {
      resolve(TIMED_OUT);
      onTimeout?.();
    }, timeoutMs);
    // Stryker disable next-line OptionalChaining: Node's timers always have unref; the optional call is for other runtimes
    (timer as { unref?: () => void }).unref?.();
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/**
 * The signal one call's callbacks receive: it aborts when the call outlives its time limit
 * (`abortOnTimeout`, with a `TimeoutError`), or when the client cancels the request (the SDK's
 * own signal, whose reason it forwards). `release` detaches it from the SDK's signal once the
 * call settled, so a long-lived request signal keeps no reference to it.
 */
export function callSignal(request: AbortSignal | undefined, timeoutMs: number): {
  readonly signal: AbortSignal;
  readonly abortOnTimeout: () => void;
  readonly release: () => void;
} {
  const controller = new AbortController();
  // Stryker disable next-line OptionalChaining: forward only runs when there is a request signal
  const forward = (): void => controller.abort(request?.reason);
  if (request?.aborted === true) forward();
  else request?.addEventListener("abort", forward, { once: true });
  return {
    signal: controller.signal,
    abortOnTimeout: () => controller.abort(new DOMException(`The call took longer than ${timeoutMs} ms.`, "TimeoutError")),
    release: () => request?.removeEventListener("abort", forward),
  };
}

/** The SDK's request signal from a tool handler's second argument: `ctx.mcpReq.signal` in v2, `extra.signal` in v1. */
export function requestSignal(extra: unknown): AbortSignal | undefined {
  if (typeof extra !== "object" || extra === null) return undefined;
  const v2 = (extra as { mcpReq?: { signal?: unknown } }).mcpReq?.signal;
  const v1 = (extra as { signal?: unknown }).signal;
  const signal = v2 ?? v1;
  // Stryker disable next-line StringLiteral: AbortSignal is a global in every Node this package supports
  return typeof AbortSignal !== "undefined" && signal instanceof AbortSignal ? signal : undefined;
}
