import { describe, expect, it } from 'vitest';
import { createRuntime } from '../../../src/runtime/create_runtime.js';
import { tempDir } from '../../support/runtime_fixtures.js';

describe('the sandbox probe', () => {
  it('is stopped when the runtime ends before it does, so it holds nothing open', async () => {
    const rt = createRuntime({ cwd: tempDir(), documentsRoot: tempDir('lathe-home-'), env: {} });
    // The probe's bubblewrap is started by the time check() returns; dispose() stops it.
    const status = rt.checkSandbox();
    await rt.dispose();
    expect(await status).toEqual({ active: false, reason: 'the sandbox probe was stopped' });
  });
});
