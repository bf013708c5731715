import { resolve } from 'node:path';
import { atomicWriteFile } from '../../edit/atomic_write.js';
import { exportMarkdown } from '../../session/export.js';
import { readSessionLog } from '../../session/read.js';

/**
 * `/export [file]`: the conversation so far as Markdown, the same transcript `lathe sessions
 * export` prints, written (atomically) to `file` or to `lathe-<session id>.md` in the working
 * folder. Returns the line to show: where it went, or why nothing was written.
 */
export async function exportConversation(options: {
  logPath: string | undefined;
  sessionId: string;
  cwd: string;
  file?: string;
}): Promise<{ text: string; error?: boolean }> {
  if (!options.logPath) return { text: 'Nothing to export yet: the session starts with the first prompt.' };
  const { events, errors } = readSessionLog(options.logPath);
  const target = resolve(options.cwd, options.file?.trim() || `lathe-${options.sessionId}.md`);
  try {
    await atomicWriteFile(target, exportMarkdown(events));
  } catch (error) {
    return { text: `The conversation was not exported: ${(error as Error).message}`, error: true };
  }
  const skipped = errors.length > 0 ? ` (${errors.length} damaged records of the log skipped)` : '';
  return { text: `Exported the conversation to ${target}${skipped}` };
}
