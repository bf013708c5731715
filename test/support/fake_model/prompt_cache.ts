import { createHash } from 'node:crypto';
import type { WireJson } from './types.js';

/** What a request's input comes to: every token, and those read from and written to the cache. */
export interface InputAccount {
  inputTokens: number;
  cachedInputTokens: number;
  cacheWriteTokens: number;
}

/** How far before a breakpoint Anthropic looks for an earlier cache entry, in blocks. */
const LOOKBACK_BLOCKS = 20;

/** A rough token count, as the fake server's count_tokens routes make it: a token per 4 characters. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

interface Block {
  text: string;
  breakpoint: boolean;
}

/** The request's cacheable blocks in Anthropic's order: tools, then system, then messages. */
function blocksOf(body: WireJson): Block[] {
  const blocks: Block[] = [];
  const add = (block: WireJson, role?: string) => {
    const { cache_control, ...rest } = typeof block === 'string' ? { type: 'text', text: block } : block;
    blocks.push({ text: JSON.stringify(role ? { role, ...rest } : rest), breakpoint: cache_control != null });
  };
  for (const tool of Array.isArray(body?.tools) ? body.tools : []) add(tool);
  const system = body?.system;
  for (const block of Array.isArray(system) ? system : system ? [system] : []) add(block);
  for (const message of Array.isArray(body?.messages) ? body.messages : []) {
    const content = message?.content;
    for (const block of Array.isArray(content) ? content : [content]) add(block, message?.role);
  }
  return blocks;
}

/**
 * Anthropic's prompt cache, emulated for one server: a request's prefix up to a `cache_control`
 * breakpoint is written to the cache (when it is at least `minTokens` long); a later request
 * reads the longest prefix written before that ends at one of its breakpoints or up to 20 blocks
 * before one. What was read is billed as a cache read, what was newly written up to the last
 * breakpoint as a cache write, and the rest as plain input. Entries never expire here.
 */
export class AnthropicPromptCache {
  private readonly written = new Set<string>();

  constructor(private readonly minTokens = 1024) {}

  account(body: unknown): InputAccount {
    const blocks = blocksOf(body);
    const hashes: string[] = [];
    const tokensUpTo: number[] = [];
    let hash = '';
    let tokens = 0;
    for (const block of blocks) {
      hash = createHash('sha256').update(hash).update(block.text).digest('hex');
      tokens += estimateTokens(block.text);
      hashes.push(hash);
      tokensUpTo.push(tokens);
    }
    const prefixTokens = (end: number) => (end < 0 ? 0 : tokensUpTo[end]);
    const breakpoints = blocks.flatMap((block, i) => (block.breakpoint ? [i] : []));

    let readEnd = -1;
    for (const b of breakpoints) {
      for (let i = b; i >= Math.max(0, b - LOOKBACK_BLOCKS); i--) {
        if (this.written.has(hashes[i])) {
          readEnd = Math.max(readEnd, i);
          break;
        }
      }
    }
    let writeEnd = readEnd;
    for (const b of breakpoints) {
      if (b <= readEnd || prefixTokens(b) < this.minTokens) continue;
      this.written.add(hashes[b]);
      writeEnd = b;
    }
    return {
      inputTokens: tokens,
      cachedInputTokens: prefixTokens(readEnd),
      cacheWriteTokens: prefixTokens(writeEnd) - prefixTokens(readEnd),
    };
  }
}
