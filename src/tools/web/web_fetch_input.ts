import { z } from 'zod';
import { lazySchema } from '../../tool/lazy_schema.js';

/** Characters of a page web_fetch returns when the call does not say. */
export const DEFAULT_MAX_CHARS = 20_000;

/** web_fetch's parameters, read by its declaration and by its work. */
export const inputSchema = lazySchema(() =>
  z.strictObject({
    url: z.string().describe('The full http:// or https:// URL'),
    max_chars: z
      .number()
      .int()
      .min(1_000)
      .max(100_000)
      .optional()
      .describe(`Characters of the page to return (default ${DEFAULT_MAX_CHARS}); longer pages are paged`),
    offset: z.number().int().min(0).optional().describe('Where to start in the page, from an earlier result'),
    prompt: z
      .string()
      .optional()
      .describe(
        'A question about the page: a small model reads it and answers, instead of returning the page',
      ),
  }),
);

export type WebFetchInput = z.infer<typeof inputSchema>;
