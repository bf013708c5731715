import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime } from '../../../src/runtime/create_runtime.js';
import { type FakeImageServer, startFakeImageServer } from '../../support/fake_image_server.js';
import { tempDir, writeTree } from '../../support/runtime_fixtures.js';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function drawingRuntime(env: NodeJS.ProcessEnv, workspace = tempDir(), model = 'openai/gpt-image-1') {
  return {
    workspace,
    rt: createRuntime({
      cwd: workspace,
      documentsRoot: tempDir('lathe-home-'),
      env,
      features: ['image_generation'],
      approve: ['edit'],
      settings: { images: { model } },
    }),
  };
}

describe('generate_image', () => {
  let images: FakeImageServer;
  beforeAll(async () => {
    images = await startFakeImageServer();
  });
  afterAll(() => images.close());

  it('writes the PNG the model returns, and its checksum matches', async () => {
    const { rt, workspace } = drawingRuntime(images.env);
    const r = await rt.runTool('generate_image', {
      prompt: 'a red square',
      path: 'art/square.png',
      size: '64x48',
    });
    expect(r.isError, r.text).toBe(false);
    const written = readFileSync(join(workspace, 'art/square.png'));
    expect(sha256(written)).toBe(sha256(images.png));
    expect(r.text).toBe(
      `Wrote art/square.png (64×48, ${images.png.length} bytes, sha256 ${sha256(images.png)}).`,
    );
    expect(r.images).toBeUndefined();
    const request = images.requests.at(-1)!;
    expect(request.path).toBe('/v1/images/generations');
    expect(JSON.parse(request.body)).toMatchObject({
      model: 'gpt-image-1',
      prompt: 'a red square',
      size: '64x48',
    });
  });

  it('shows the image only when asked', async () => {
    const { rt } = drawingRuntime(images.env);
    const r = await rt.runTool('generate_image', { prompt: 'x', path: 'a.png', show: true });
    expect(r.images?.[0]).toEqual({ mediaType: 'image/png', data: images.png.toString('base64') });
  });

  it('sends the edit_from image to the edits endpoint', async () => {
    const workspace = writeTree({ 'in.png': images.png });
    const { rt } = drawingRuntime(images.env, workspace);
    const r = await rt.runTool('generate_image', {
      prompt: 'make it blue',
      path: 'out.png',
      edit_from: 'in.png',
    });
    expect(r.isError, r.text).toBe(false);
    const request = images.requests.at(-1)!;
    expect(request.path).toBe('/v1/images/edits');
    expect(request.contentType).toMatch(/^multipart\/form-data/);
    expect(request.body).toContain('make it blue');
  });

  it('writes nothing without approval for the edit when no one can answer', async () => {
    const workspace = tempDir();
    const rt = createRuntime({
      cwd: workspace,
      documentsRoot: tempDir('lathe-home-'),
      env: images.env,
      features: ['image_generation'],
      settings: { images: { model: 'openai/gpt-image-1' } },
    });
    const before = images.requests.length;
    const r = await rt.runTool('generate_image', { prompt: 'x', path: 'a.png' });
    expect(r.isError).toBe(true);
    expect(r.permissionDenial?.category).toBe('edit');
    expect(existsSync(join(workspace, 'a.png'))).toBe(false);
    expect(images.requests.length).toBe(before);
  });

  it('says what the image API answered when it refuses, and writes nothing', async () => {
    const failing = await startFakeImageServer({ status: 400 });
    try {
      const { rt, workspace } = drawingRuntime(failing.env);
      const r = await rt.runTool('generate_image', { prompt: 'x', path: 'a.png' });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(
        /^The image model failed \(HTTP 400\): Your prompt was rejected by the safety system\. Nothing was written\.$/,
      );
      expect(existsSync(join(workspace, 'a.png'))).toBe(false);
    } finally {
      await failing.close();
    }
  });

  it('names the missing key', async () => {
    const { rt } = drawingRuntime({});
    const r = await rt.runTool('generate_image', { prompt: 'x', path: 'a.png' });
    expect(r.text).toBe(
      'OPENAI_API_KEY is not set: export it to draw with openai/gpt-image-1 (settings images.model). Nothing was written.',
    );
  });

  it('is offered only with an image model in settings', async () => {
    const rt = createRuntime({
      cwd: tempDir(),
      documentsRoot: tempDir('lathe-home-'),
      env: {},
      features: ['image_generation'],
    });
    expect(rt.pool.map((t) => t.name)).not.toContain('generate_image');
    const { rt: configured } = drawingRuntime({});
    expect(configured.pool.map((t) => t.name)).toContain('generate_image');
  });
});
