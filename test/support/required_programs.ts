import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe } from 'vitest';

/**
 * The programs the tests run for real, each with the Debian package that brings it. Checked
 * once before the suite (test/required_programs_setup.ts); a test file that needs one says so
 * with `needs`.
 */
export const REQUIRED_PROGRAMS = {
  bwrap: 'bubblewrap',
  tmux: 'tmux',
  chromium: 'chromium',
  'chromium-headless-shell': 'chromium-headless-shell',
  'redis-server': 'redis-server',
} as const;

export type RequiredProgram = keyof typeof REQUIRED_PROGRAMS;

/** Set, the suite skips the tests whose programs are missing instead of stopping. */
export const SKIP_MISSING = process.env.LATHE_TEST_SKIP_MISSING === '1';

export function onPath(program: string, path = process.env.PATH ?? ''): boolean {
  return path.split(delimiter).some((folder) => {
    if (!folder) return false;
    try {
      accessSync(join(folder, program), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** The required programs not on PATH, in the table's order. */
export function missingPrograms(path?: string): RequiredProgram[] {
  return (Object.keys(REQUIRED_PROGRAMS) as RequiredProgram[]).filter((program) => !onPath(program, path));
}

/** One line: what is missing and the command that installs it. */
export function missingProgramsMessage(missing: RequiredProgram[]): string {
  const packages = [...new Set(missing.map((program) => REQUIRED_PROGRAMS[program]))].join(' ');
  return (
    `the tests need ${missing.join(', ')}, not found on PATH: install them with ` +
    `\`apt install ${packages}\`, or set LATHE_TEST_SKIP_MISSING=1 to skip the tests that need them`
  );
}

/**
 * `describe` for the tests of a file that run `programs`: under LATHE_TEST_SKIP_MISSING=1, when
 * one is missing, the group is skipped and its name says which program it lacks.
 */
export function needs(...programs: RequiredProgram[]) {
  const missing = programs.filter((program) => !onPath(program));
  const skip = SKIP_MISSING && missing.length > 0;
  return (name: string, body: () => void) =>
    describe.skipIf(skip)(skip ? `${name} (skipped: needs ${missing.join(', ')})` : name, body);
}
