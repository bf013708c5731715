import { defineConfig } from 'vitest/config';

/** The suite's check for missing programs, before a file that needs tmux (required_programs.test.ts). */
export default defineConfig({
  test: {
    root: new URL('../../..', import.meta.url).pathname,
    include: ['test/support/required_programs/*.fixture.ts'],
    globalSetup: ['test/required_programs_setup.ts'],
  },
});
