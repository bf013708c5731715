import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ModelCapabilities } from '../provider/capabilities.js';
import type { ImageBlock } from '../tool/types.js';
import { isImagePath } from '../tools/files/render/image.js';
import { UsageError } from './errors.js';

/** What the prompt flags of a run (headless or the UI) add to what the model is told. */
export interface PromptFlags {
  systemPrompt?: string;
  appendSystemPrompt?: string;
  addDir?: string[];
}

/**
 * The user's instructions for the system prompt: `--system-prompt` replaces lathe's,
 * `--append-system-prompt` follows it, and folders added with `--add-dir` are named so the model
 * knows it may work there.
 */
export function systemPromptFrom(flags: PromptFlags): { replace?: string; append?: string } | undefined {
  const append = [flags.appendSystemPrompt];
  if (flags.addDir?.length) {
    const dirs = flags.addDir.map((dir) => resolve(dir)).join(', ');
    append.push(`Besides the working folder, you may read and edit files in: ${dirs}`);
  }
  const appended = append.filter((text): text is string => Boolean(text?.trim())).join('\n\n');
  if (!flags.systemPrompt && !appended) return undefined;
  return {
    ...(flags.systemPrompt ? { replace: flags.systemPrompt } : {}),
    ...(appended ? { append: appended } : {}),
  };
}

/** An image for a prompt, made ready for the model (resized, converted) by read_file's renderer. */
export async function readImageFile(path: string): Promise<ImageBlock> {
  if (!isImagePath(path)) throw new UsageError(`${path}: not an image (png, jpg, gif, webp)`);
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`${path}: ${code === 'ENOENT' ? 'no such file' : 'cannot be read'}`);
  }
  const { renderImage } = await import('../tools/files/render/image.js');
  const image = await renderImage(bytes, path);
  if (!image.ok) throw new UsageError(image.error);
  return { mediaType: image.mediaType, data: image.data };
}

/** One clear line when the model cannot see images. */
export function imagesRefusal(modelName: string, capabilities: ModelCapabilities): string | undefined {
  if (capabilities.images) return undefined;
  return `${modelName} does not take images; leave the image out, or choose a model that does (e.g. anthropic/claude-sonnet-4-5, openai/gpt-5, google/gemini-2.5-pro)`;
}
