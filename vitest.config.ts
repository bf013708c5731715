import { defineConfig } from 'vitest/config';
import { SLOW_TESTS } from './test/slow_tests.js';

/** `npm test` runs everything but the scale tests; `LATHE_SLOW_TESTS=1` (`npm run test:slow`) runs those alone. */
const slow = process.env.LATHE_SLOW_TESTS === '1';

export default defineConfig({
  test: {
    include: slow ? SLOW_TESTS : ['test/**/*.test.ts'],
    exclude: slow ? [] : ['**/node_modules/**', ...SLOW_TESTS],
    environment: 'node',
    globalSetup: ['test/required_programs_setup.ts', 'test/temp_folder_setup.ts'],
    // Most tests wait on real processes (lathe, bwrap, tmux, servers), not on the CPU: more
    // workers than cores keeps a two-core machine busy.
    maxWorkers: 4,
    // A worker keeps the modules it loaded from one test file to the next instead of loading
    // lathe again for each (a third of the suite's time); tests keep their state in temp folders
    // and runtimes of their own, not in module globals.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // CI=false: Ink reads CI variables once and then renders only final frames; the UI tests
    // check live rendering, and CI machines set CI=true.
    env: { NODE_ENV: 'test', CI: 'false', CONTINUOUS_INTEGRATION: 'false' },
  },
});
