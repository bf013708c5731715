import type { ImageBlock, ToolOutput } from '../tool/types.js';

/** The content blocks of MCP results, loosely typed: servers send what they send. */
interface ContentBlock {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  description?: string;
  resource?: { uri: string; mimeType?: string; text?: string; blob?: string };
}

interface CallResult {
  content?: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  /** Servers of protocol 2024-10-07 and older answer with `toolResult`. */
  toolResult?: unknown;
}

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** Blobs of these types are text in base64: decoded, they are worth showing. */
function isTextual(mimeType: string | undefined): boolean {
  if (!mimeType) return false;
  return /^text\/|^application\/(json|xml|javascript|yaml|x-yaml|toml)\b|\+(json|xml)\b/.test(mimeType);
}

function kilobytes(base64: string): string {
  const bytes = Math.floor((base64.length * 3) / 4);
  return bytes < 1024 ? `${bytes} bytes` : `${Math.round(bytes / 1024)} KB`;
}

/** One resource's contents (of a `resource` block or `resources/read`) as text and images. */
function resourceContents(
  resource: { uri: string; mimeType?: string; text?: string; blob?: string },
  images: ImageBlock[],
): string {
  const type = resource.mimeType ? ` (${resource.mimeType})` : '';
  if (typeof resource.text === 'string') return `[resource ${resource.uri}${type}]\n${resource.text}`;
  if (typeof resource.blob === 'string') {
    if (isTextual(resource.mimeType)) {
      return `[resource ${resource.uri}${type}]\n${Buffer.from(resource.blob, 'base64').toString('utf8')}`;
    }
    if (resource.mimeType && IMAGE_TYPES.has(resource.mimeType)) {
      images.push({ mediaType: resource.mimeType, data: resource.blob });
      return `[resource ${resource.uri}${type}: image attached]`;
    }
    return `[resource ${resource.uri}${type}: binary, ${kilobytes(resource.blob)}; not shown]`;
  }
  return `[resource ${resource.uri}${type}: no contents]`;
}

/** Maps content blocks to text the model reads plus image blocks it sees. */
export function mapContent(blocks: readonly ContentBlock[]): { text: string; images: ImageBlock[] } {
  const parts: string[] = [];
  const images: ImageBlock[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        parts.push(block.text ?? '');
        break;
      case 'image':
        if (block.data && block.mimeType && IMAGE_TYPES.has(block.mimeType)) {
          images.push({ mediaType: block.mimeType, data: block.data });
          parts.push(`[image ${block.mimeType} attached]`);
        } else {
          parts.push(`[image ${block.mimeType ?? 'of unknown type'}: not a format the model can see]`);
        }
        break;
      case 'audio':
        parts.push(`[audio ${block.mimeType ?? ''}, ${kilobytes(block.data ?? '')}: not shown]`);
        break;
      case 'resource':
        if (block.resource) parts.push(resourceContents(block.resource, images));
        break;
      case 'resource_link': {
        const about = [block.mimeType, block.description].filter(Boolean).join('; ');
        parts.push(
          `[resource link ${block.name ?? ''} ${block.uri}${about ? ` (${about})` : ''}: read it with access_mcp_resource]`,
        );
        break;
      }
      default:
        parts.push(`[${block.type} content]\n${JSON.stringify(block)}`);
    }
  }
  return { text: parts.join('\n'), images };
}

/** A `tools/call` result as a tool output: text, images and resources; `isError` kept. */
export function mapCallResult(result: CallResult): ToolOutput {
  if (result.content === undefined && result.toolResult !== undefined) {
    return { text: JSON.stringify(result.toolResult, null, 2) };
  }
  const { text, images } = mapContent(result.content ?? []);
  let shown = text;
  // Structured content is also sent as text by well-behaved servers; show it only when it is not.
  if (result.structuredContent !== undefined && shown.trim() === '') {
    shown = JSON.stringify(result.structuredContent, null, 2);
  }
  if (shown === '' && images.length === 0) shown = '(the tool returned no content)';
  return {
    text: shown,
    ...(result.isError ? { isError: true } : {}),
    ...(images.length > 0 ? { images } : {}),
    ...(result.structuredContent !== undefined ? { data: result.structuredContent } : {}),
  };
}

/** A `resources/read` result as a tool output. */
export function mapResourceContents(
  contents: ReadonlyArray<{ uri: string; mimeType?: string; text?: string; blob?: string }>,
): ToolOutput {
  const images: ImageBlock[] = [];
  const parts = contents.map((c) => resourceContents(c, images));
  const text = parts.length > 0 ? parts.join('\n\n') : '(the resource is empty)';
  return { text, ...(images.length > 0 ? { images } : {}) };
}
