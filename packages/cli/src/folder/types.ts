/**
 * The shapes the folder's modules share: a document as indexed and as read again, and what the
 * indexer knows of each file. A leaf module, so that the folder (./folder.ts), its walk
 * (./walk.ts) and its per-file step (./reader.ts) import them without a cycle.
 */
import type { IndexEntry } from "@sbissoli/mcp-search";

/**
 * One indexed file. Its text is not kept: {@link Folder.load} reads it again when a snippet or a
 * fetch needs it.
 *
 * @example
 * const doc: FolderDocument = { id: "doc:a.md", relative: "a.md", title: "A", url: "file:///srv/docs/a.md",
 *   format: "markdown", bytes: 3, modified: 1767225600000 };
 */
export interface FolderDocument {
  readonly id: string;
  readonly relative: string;
  readonly title: string;
  readonly url: string;
  readonly format: string;
  readonly bytes: number;
  readonly modified: number;
}

/**
 * An indexed file with its text, as read again from disk by {@link Folder.load}.
 *
 * @example
 * const loaded: LoadedDocument = { ...doc, text: "# A" };
 */
export interface LoadedDocument extends FolderDocument {
  readonly text: string;
  /** A paged document's (PDF's) page starts in `text`, in order. @default undefined (one page) */
  readonly pageStarts?: readonly number[] | undefined;
}

/**
 * What was known of a file at the last refresh; `document` is absent when it was skipped.
 * `changed` is the status-change time (ctime): a `chmod` that makes a file readable moves it, not
 * the modification time. `retry` marks a file that changed while it was read: the next refresh
 * reads it again whatever its times.
 */
export interface Known {
  readonly modified: number;
  readonly changed: number;
  readonly size: number;
  readonly document?: FolderDocument;
  readonly retry?: boolean;
  /** Set when the file could not be read, or only in part (counted in {@link FolderSnapshot.unreadable}). */
  readonly unreadable?: boolean;
}

/** The times and size a refresh compares. */
export interface FileStat {
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly size: number;
}

/** A file read for the index: what is known of it, and the entry to index when it is a document. */
export interface Read {
  readonly known: Known;
  readonly entry?: IndexEntry;
}

/** A file found by the walk, and whether it is a symbolic link. */
export interface Listed {
  readonly relative: string;
  readonly link: boolean;
}
