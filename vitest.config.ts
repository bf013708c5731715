import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // CI=false: Ink reads CI variables once and then renders only final frames; the UI tests
    // check live rendering, and CI machines set CI=true.
    env: { NODE_ENV: 'test', CI: 'false', CONTINUOUS_INTEGRATION: 'false' },
  },
});
