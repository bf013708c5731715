import { fileURLToPath } from 'node:url';
import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { SdkUserMessage } from '../sdk/messages.js';

/** A `file://` URI as its path; other URIs as they are. */
export function uriPath(uri: string): string {
  if (!uri.startsWith('file://')) return uri;
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}

/**
 * A prompt's content blocks as one user message: text as typed, images as images, an embedded
 * resource (an editor's file or selection) as its text under its path, a link as the path the
 * model may read. Audio is refused: the agent does not advertise it.
 */
export function userMessage(blocks: readonly ContentBlock[]): SdkUserMessage {
  const parts: string[] = [];
  const images: Array<{ mediaType: string; data: string }> = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        parts.push(block.text);
        break;
      case 'image':
        images.push({ mediaType: block.mimeType, data: block.data });
        break;
      case 'resource': {
        const { resource } = block;
        const where = uriPath(resource.uri);
        if ('text' in resource) parts.push(`<context path="${where}">\n${resource.text}\n</context>`);
        else if (resource.mimeType?.startsWith('image/'))
          images.push({ mediaType: resource.mimeType, data: resource.blob });
        else
          parts.push(
            `(attached: ${where}, ${resource.mimeType ?? 'binary'}; read it with the tools if needed)`,
          );
        break;
      }
      case 'resource_link':
        parts.push(`@${uriPath(block.uri)}`);
        break;
      default:
        throw new Error(
          `prompt: ${block.type} content is not supported (text, image, resource, resource_link are)`,
        );
    }
  }
  return { type: 'user', text: parts.join('\n'), ...(images.length ? { images } : {}) };
}
