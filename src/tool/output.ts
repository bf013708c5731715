export interface ImageBlock {
  mediaType: string;
  /** base64 data */
  data: string;
}

/** What a tool's `call` returns. */
export interface ToolOutput {
  text: string;
  isError?: boolean;
  data?: unknown;
  images?: ImageBlock[];
  /** Where the whole output is saved, when `text` holds only part of it (a command's long output). */
  savedPath?: string;
}
