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
}
