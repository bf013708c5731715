import type { Sharp } from 'sharp';

/** Longest edge sent to the model; larger images cost tokens without adding detail the model can use. */
export const MAX_IMAGE_EDGE = 1568;
/** 3.75 MB of image bytes is 5 MB once base64-encoded, the provider limit per image. */
export const MAX_IMAGE_BYTES = 3.75 * 1024 * 1024;

/** Quality used when a resized JPEG is re-encoded. */
const RESIZED_JPEG_QUALITY = 80;
/** Qualities tried, in order, when an image is still over the byte limit after resizing. */
const FALLBACK_JPEG_QUALITIES = [70, 55, 40, 25];

/** Formats the model accepts as they are, by sharp's format name; everything else is converted to PNG. */
const SENDABLE_MEDIA_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/**
 * Extensions read as images. SVG is left out on purpose: reading an .svg is almost always about its
 * source, so it goes to the text reader; `renderImage` still rasterises SVG when asked to.
 * BMP is in so that it gets a clear "not supported" answer rather than a binary-file one.
 */
const IMAGE_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'tif', 'tiff', 'avif', 'bmp']);

export type ImageRender =
  | { ok: true; mediaType: string; data: string; width: number; height: number; note: string }
  | { ok: false; error: string };

export function isImagePath(fileName: string): boolean {
  return IMAGE_EXTENSIONS.has(extensionOf(fileName));
}

export async function renderImage(bytes: Uint8Array, fileName: string): Promise<ImageRender> {
  // The bundled libvips has no BMP decoder, so say so plainly instead of passing on its generic error.
  if (extensionOf(fileName) === 'bmp') {
    return { ok: false, error: `${fileName}: BMP images are not supported; convert the file to PNG first` };
  }
  try {
    const sharp = (await import('sharp')).default;
    // 'truncated' rejects cut-off files but tolerates the harmless warnings many real JPEGs carry.
    const open = () => sharp(bytes, { failOn: 'truncated', autoOrient: true });

    let metadata: Awaited<ReturnType<Sharp['metadata']>>;
    try {
      metadata = await open().metadata();
    } catch (error) {
      return { ok: false, error: `${fileName}: not a readable image: ${messageOf(error)}` };
    }
    const { width, height } = metadata.autoOrient;
    const sendableType = SENDABLE_MEDIA_TYPES[metadata.format];
    const tooLarge = Math.max(width, height) > MAX_IMAGE_EDGE || bytes.byteLength > MAX_IMAGE_BYTES;

    if (sendableType && !tooLarge) {
      // Decode once even though the bytes are sent unchanged: a broken image in the conversation
      // would make every later request to the provider fail.
      await open().raw().toBuffer();
      return {
        ok: true,
        mediaType: sendableType,
        data: Buffer.from(bytes).toString('base64'),
        width,
        height,
        note: `image ${width}×${height}`,
      };
    }
    return await reencode(open(), metadata.format, width, height, (metadata.pages ?? 1) > 1);
  } catch (error) {
    return { ok: false, error: `${fileName}: could not process image: ${messageOf(error)}` };
  }
}

/** Resizes to fit MAX_IMAGE_EDGE and re-encodes, falling back to ever lower JPEG quality to fit the byte limit. */
async function reencode(
  image: Sharp,
  format: string,
  width: number,
  height: number,
  animated: boolean,
): Promise<ImageRender> {
  const resized = image.resize({
    width: MAX_IMAGE_EDGE,
    height: MAX_IMAGE_EDGE,
    fit: 'inside',
    withoutEnlargement: true,
  });
  const keepJpeg = format === 'jpeg';
  let output = keepJpeg
    ? await resized.clone().jpeg({ quality: RESIZED_JPEG_QUALITY }).toBuffer({ resolveWithObject: true })
    : await resized.clone().png().toBuffer({ resolveWithObject: true });
  let mediaType = keepJpeg ? 'image/jpeg' : 'image/png';
  let fallbackQuality: number | undefined;

  for (const quality of FALLBACK_JPEG_QUALITIES) {
    if (output.data.byteLength <= MAX_IMAGE_BYTES) break;
    // JPEG has no alpha; flatten onto white so transparent areas don't turn black.
    output = await resized
      .clone()
      .flatten({ background: '#ffffff' })
      .jpeg({ quality })
      .toBuffer({ resolveWithObject: true });
    mediaType = 'image/jpeg';
    fallbackQuality = quality;
  }
  if (output.data.byteLength > MAX_IMAGE_BYTES) {
    return {
      ok: false,
      error: `image ${width}×${height} is still over 3.75 MB after resizing and compressing`,
    };
  }

  const outWidth = output.info.width;
  const outHeight = output.info.height;
  const parts = [
    outWidth === width && outHeight === height
      ? `image ${width}×${height}`
      : `image ${width}×${height} resized to ${outWidth}×${outHeight}`,
  ];
  if (!SENDABLE_MEDIA_TYPES[format]) parts.push(`converted from ${format.toUpperCase()}`);
  if (fallbackQuality !== undefined)
    parts.push(`re-encoded as JPEG quality ${fallbackQuality} to fit 3.75 MB`);
  if (animated) parts.push('first frame only');

  return {
    ok: true,
    mediaType,
    data: output.data.toString('base64'),
    width: outWidth,
    height: outHeight,
    note: parts.join(', '),
  };
}

function extensionOf(fileName: string): string {
  const base = fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
