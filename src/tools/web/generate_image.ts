import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { atomicWriteFile, WriteRefusedError } from '../../edit/atomic_write.js';
import { createImageModel } from '../../provider/image_model.js';
import { ModelConfigError } from '../../provider/model_spec.js';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { editFolderCheck } from '../edit/write_guard.js';
import { absolutePath, displayPath, pathKind } from '../shared/paths.js';

/** An image to edit larger than this is refused before it is sent. */
const MAX_SOURCE_BYTES = 20 * 1024 * 1024;

const inputSchema = lazySchema(() =>
  z.strictObject({
    prompt: z.string().min(1).describe('What to draw, or how to change the edit_from image'),
    path: z.string().min(1).describe('Where to write the PNG, in the workspace (e.g. assets/logo.png)'),
    size: z
      .string()
      .regex(/^\d{2,5}x\d{2,5}$/, 'size is WIDTHxHEIGHT, e.g. 1024x1024')
      .optional()
      .describe("WIDTHxHEIGHT in pixels (default: the model's, often 1024x1024)"),
    edit_from: z.string().optional().describe('An image in the workspace to change instead of drawing anew'),
    show: z.boolean().optional().describe('Also return the image for you to look at (costs tokens)'),
  }),
);

/** PNG bytes and their size in pixels; other formats the model returns are converted. */
async function asPng(bytes: Uint8Array): Promise<{ png: Buffer; width?: number; height?: number }> {
  const { default: sharp } = await import('sharp');
  const image = sharp(bytes);
  const meta = await image.metadata();
  const png = meta.format === 'png' ? Buffer.from(bytes) : await image.png().toBuffer();
  return { png, width: meta.width, height: meta.height };
}

function describeFailure(error: unknown): string {
  if (error instanceof ModelConfigError) return error.message;
  const message = ((error as Error).message ?? String(error)).split('\n')[0];
  const status = (error as { statusCode?: number }).statusCode;
  return `The image model failed${status ? ` (HTTP ${status})` : ''}: ${message}`;
}

export const generateImage = buildTool({
  name: 'generate_image',
  inputSchema,
  description:
    'Draw an image with the image model the settings name (images.model) and write it as a PNG into the workspace. ' +
    'edit_from changes an existing image instead. The result gives the path, the size and the sha256; pass show: true ' +
    'to also see the image.',
  liteDescription: 'Draw a PNG with the configured image model into the workspace.',
  availability: { profiles: ['standard', 'lite'], feature: 'image_generation', needs: ['imageGeneration'] },
  kind: 'edit',
  // lathe's own fact: it overwrites the file at path, if there is one.
  destroysExisting: true,
  permissionSubject: (input) => ({ kind: 'edit', paths: [input.path] }),
  checkPermissions: (input, ctx) =>
    input.edit_from
      ? ctx.permissions.decidePath('generate_image', 'read', absolutePath(ctx, input.edit_from))
      : { behavior: 'allow' },
  example: { input: { prompt: 'a red square', path: 'assets/square.png' } },
  userFacingName: () => 'Draw',
  touchedPaths: (input) => [input.path],
  resultView: 'head',
  async validateInput(input, ctx) {
    if (!/\.png$/i.test(input.path))
      return `path must end in .png (got ${input.path}): the image is written as a PNG.`;
    if (input.edit_from) {
      const source = await pathKind(absolutePath(ctx, input.edit_from));
      if (source.kind !== 'file') return `edit_from ${input.edit_from} is not a file.`;
      if (source.size > MAX_SOURCE_BYTES) return `edit_from ${input.edit_from} is larger than 20 MB.`;
    }
    return undefined;
  },
  async call(input, ctx) {
    const modelName = ctx.images?.model;
    if (!modelName)
      return {
        isError: true,
        text: 'No image model is set: add "images": {"model": "openai/gpt-image-1"} to settings.',
      };
    const target = absolutePath(ctx, input.path);
    const shown = displayPath(ctx, target);
    let png: Buffer;
    let width: number | undefined;
    let height: number | undefined;
    try {
      const model = await createImageModel(modelName, ctx.images?.env ?? process.env);
      const { generateImage: draw } = await import('ai');
      const prompt = input.edit_from
        ? { text: input.prompt, images: [await readFile(absolutePath(ctx, input.edit_from))] }
        : input.prompt;
      const { image } = await draw({
        model,
        prompt,
        n: 1,
        size: input.size as `${number}x${number}` | undefined,
        abortSignal: ctx.signal,
        maxRetries: 1,
      });
      ({ png, width, height } = await asPng(image.uint8Array));
    } catch (error) {
      return { isError: true, text: `${describeFailure(error)} Nothing was written.` };
    }
    try {
      await atomicWriteFile(target, png, { shown, checkFolder: editFolderCheck(ctx, target) });
    } catch (error) {
      if (error instanceof WriteRefusedError) return { isError: true, text: error.message };
      throw error;
    }
    ctx.readFiles.saw(target, png);
    const sha256 = createHash('sha256').update(png).digest('hex');
    const pixels = width && height ? `${width}×${height}, ` : '';
    return {
      text: `Wrote ${shown} (${pixels}${png.length} bytes, sha256 ${sha256}).`,
      data: { path: shown, width, height, bytes: png.length, sha256 },
      ...(input.show ? { images: [{ mediaType: 'image/png', data: png.toString('base64') }] } : {}),
    };
  },
});
