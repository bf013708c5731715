import { missingPrograms, missingProgramsMessage, SKIP_MISSING } from './support/required_programs.js';

/**
 * Before the suite: a machine without a program the tests run gets one line naming it and its
 * install command, and the run stops, instead of a hundred failures that each say it otherwise.
 */
export function setup(): void {
  const missing = missingPrograms();
  if (missing.length === 0 || SKIP_MISSING) return;
  process.stderr.write(`${missingProgramsMessage(missing)}\n`);
  process.exit(1);
}
