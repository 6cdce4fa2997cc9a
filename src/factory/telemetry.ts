/**
 * Private helpers of the factory's telemetry: the argument names a call carried, and the class
 * (`classe`) of a failed call. Values never reach telemetry, only names and classes.
 */

/** The most characters `params` may hold. */
const PARAMS_MAX_LENGTH = 200;

/** The sorted, comma-joined names of a call's arguments, capped at 200 characters. */
export function describeParams(args: unknown): string {
  if (typeof args !== "object" || args === null) return "";
  return Object.keys(args).sort().join(",").slice(0, PARAMS_MAX_LENGTH);
}

/** The class of a failure and whether it was decided by the error's type rather than its text. */
interface FailureClass {
  readonly classe: string;
  readonly byType: boolean;
}

/**
 * Classes a thrown error: its own non-empty string `classe` property first, then
 * `classifyThrown(error)`, then `classifyError(text)`, else `""`. A classifier that throws or
 * returns something other than a non-empty string leaves the decision to the next step.
 */
export function classifyFailure(
  error: unknown,
  text: string,
  classifyThrown: ((error: unknown) => string | undefined) | undefined,
  classifyError: ((message: string) => string | undefined) | undefined,
): FailureClass {
  const carried = readClasse(error);
  if (carried !== undefined) return { classe: carried, byType: true };
  const byThrown = askClassifier(classifyThrown, error);
  if (byThrown !== undefined) return { classe: byThrown, byType: true };
  const byText = askClassifier(classifyError, text);
  if (byText !== undefined) return { classe: byText, byType: false };
  return { classe: "", byType: false };
}

function readClasse(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  try {
    const classe: unknown = (error as { classe?: unknown }).classe;
    return typeof classe === "string" && classe !== "" ? classe : undefined;
  } catch {
    return undefined; // a throwing getter is no class
  }
}

function askClassifier<T>(classifier: ((input: T) => string | undefined) | undefined, input: T) {
  if (classifier === undefined) return undefined;
  try {
    const classe: unknown = classifier(input);
    return typeof classe === "string" && classe !== "" ? classe : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The message of anything thrown, without its stack, or `undefined` when it cannot be read: a
 * `message` getter that throws, a revoked Proxy, an object whose conversion to a string throws.
 * A non-string `message` (a Symbol) is converted with `String`. Never throws.
 */
export function readMessage(error: unknown): string | undefined {
  try {
    if (typeof error === "string") return error;
    if (error instanceof Error) {
      const message: unknown = error.message;
      return typeof message === "string" ? message : String(message);
    }
    return String(error);
  } catch {
    return undefined;
  }
}

/** The message of anything thrown, without its stack; `""` when it cannot be read. Never throws. */
export function messageOf(error: unknown): string {
  return readMessage(error) ?? "";
}
