import { describe, expect, it } from 'vitest';
import { describeSize, OutputCapture } from '../../src/tools/exec/output_capture.js';

describe('saving a command’s output', () => {
  it('on a full disk (/dev/full) stops saving, says why, and keeps head and tail for the result', async () => {
    const capture = new OutputCapture('/dev/full', 1_000);
    capture.write(Buffer.from('first line\n'));
    await new Promise((resolve) => setImmediate(resolve));
    capture.write(Buffer.from('second line\n'));
    await capture.close();
    expect(capture.saveError).toBe('the disk is full');
    expect(capture.preview()).toEqual({ text: 'first line\nsecond line\n', truncated: false });
  });

  it('names sizes in MB, KB or bytes', () => {
    expect([64 * 1024 * 1024, 64 * 1024, 1500].map(describeSize)).toEqual(['64 MB', '64 KB', '1,500 bytes']);
  });
});
