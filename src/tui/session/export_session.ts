import { join, resolve } from 'node:path';
import { atomicWriteFile } from '../../edit/atomic_write.js';
import { exportMarkdown } from '../../session/export.js';
import { readSessionLog } from '../../session/read.js';

/** The file `/export` writes in the session's folder when no path is given. */
const EXPORT_FILE = 'conversation.md';

/**
 * `/export [file]`: the conversation so far as Markdown, the same transcript `lathe sessions
 * export` prints, written (atomically) to `file` (relative to the working folder) or to
 * `conversation.md` in the session's own folder, never into the repository unasked. Returns the
 * line to show: where it went, or why nothing was written.
 */
export async function exportConversation(options: {
  logPath: string | undefined;
  /** The session's folder, beside its log. */
  sessionDir: string;
  cwd: string;
  file?: string;
}): Promise<{ text: string; error?: boolean }> {
  if (!options.logPath) return { text: 'Nothing to export yet: the session starts with the first prompt.' };
  const { events, errors } = readSessionLog(options.logPath);
  const file = options.file?.trim();
  const target = file ? resolve(options.cwd, file) : join(options.sessionDir, EXPORT_FILE);
  try {
    await atomicWriteFile(target, exportMarkdown(events));
  } catch (error) {
    return { text: `The conversation was not exported: ${(error as Error).message}`, error: true };
  }
  const skipped = errors.length > 0 ? ` (${errors.length} damaged records of the log skipped)` : '';
  return { text: `Exported the conversation to ${target}${skipped}` };
}
