/**
 * Data model of a parsed `*** Begin Patch` document. Every op and chunk keeps the 1-based line
 * of the patch it came from so that refusals can point the model at the exact place to fix.
 */

export interface PatchChunk {
  /**
   * The texts after `@@ ` of the chunk's header lines, in order (none for a bare `@@`): each is a
   * line that must appear below the one before, and the change below the last (narrows the search).
   */
  contexts: string[];
  /** Lines the chunk expects in the file (context and removed lines, in order). */
  oldLines: string[];
  /** Lines the chunk leaves in the file (context and added lines, in order). */
  newLines: string[];
  /**
   * For each entry of `newLines`: the index in `oldLines` of the context line it keeps, or -1
   * for an added line. Kept lines are written as the file has them, not as the patch spells them.
   */
  keptFrom: number[];
  /** `*** End of File` closed the chunk: its lines must be the last lines of the file. */
  endOfFile: boolean;
  /** 1-based patch line where the chunk starts. */
  line: number;
}

export type PatchOp =
  | { kind: 'add'; path: string; content: string; line: number }
  | { kind: 'delete'; path: string; line: number }
  | { kind: 'update'; path: string; moveTo: string | null; chunks: PatchChunk[]; line: number };

export type ParseResult = { ok: true; ops: PatchOp[] } | { ok: false; error: string };

/** What the planner knows about a path before the patch: text, missing, or a folder. */
export type FileState = string | null | 'directory';

export interface PlannedChange {
  path: string;
  /** New full content, or null to delete the file. */
  content: string | null;
}

export type PlanResult =
  | { ok: true; changes: PlannedChange[]; summary: string[] }
  | { ok: false; error: string };
