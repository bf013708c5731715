import type { ImageBlock } from '../tool/types.js';
import { UsageError } from './errors.js';
import type { SdkUserMessage } from './messages.js';
import { readImageFile } from './prompt_flags.js';

/** One prompt of a conversation, ready for the agent. */
export interface UserPrompt {
  text: string;
  images: ImageBlock[];
}

/** Image files are read (and made ready for the model) as `-i` reads them; blocks pass as they are. */
export function readImages(images: ReadonlyArray<string | ImageBlock> | undefined): Promise<ImageBlock[]> {
  return Promise.all(
    (images ?? []).map((image) => (typeof image === 'string' ? readImageFile(image) : image)),
  );
}

function userPrompt(message: unknown): Promise<UserPrompt> | UserPrompt {
  if (typeof message === 'string') return { text: message, images: [] };
  const user = message as SdkUserMessage | undefined;
  if (user?.type !== 'user' || typeof user.text !== 'string')
    throw new UsageError("prompt: each message of a conversation is a string or { type: 'user', text }");
  return readImages(user.images).then((images) => ({ text: user.text, images }));
}

/**
 * The prompts a program feeds, read one at a time as the run is ready for the next; undefined
 * once the program's iterable ends or the run is interrupted while waiting for it.
 */
export function promptReader(
  messages: AsyncIterable<SdkUserMessage | string>,
  signal: AbortSignal,
): () => Promise<UserPrompt | undefined> {
  const iterator = messages[Symbol.asyncIterator]();
  return async () => {
    if (signal.aborted) return undefined;
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<'aborted'>((resolve) => {
      onAbort = () => resolve('aborted');
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      const next = await Promise.race([iterator.next(), aborted]);
      if (next === 'aborted') {
        void iterator.return?.();
        return undefined;
      }
      return next.done ? undefined : await userPrompt(next.value);
    } finally {
      if (onAbort) signal.removeEventListener('abort', onAbort);
    }
  };
}
