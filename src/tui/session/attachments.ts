import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { pathInside } from '../../util/inside_folder.js';

/** Files larger than this are named, not attached: the model can read them in ranges. */
const MAX_FILE_BYTES = 256 * 1024;
const MAX_FOLDER_ENTRIES = 200;
/** Pictures go to the model as images, when it takes them, not as text. */
const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp']);

export interface Attached {
  /** The prompt with the attached files' contents after it. */
  text: string;
  attached: string[];
  /** Paths that were too large or unreadable, and why. */
  skipped: string[];
  /** Image files named with @, to send as images: where they are and how they were written. */
  images: Array<{ path: string; shown: string }>;
}

/**
 * `@path` in a prompt attaches the file (or a folder's listing): the contents follow the prompt,
 * so the model does not need a read_file call for what the user pointed at.
 */
export function attachFiles(prompt: string, cwd: string): Attached {
  const blocks: string[] = [];
  const attached: string[] = [];
  const skipped: string[] = [];
  const images: Attached['images'] = [];
  const seen = new Set<string>();
  for (const match of prompt.matchAll(/(?:^|\s)@((?:\\ |[^\s])+)/g)) {
    const written = match[1].replace(/\\ /g, ' ').replace(/[.,;:!?)]+$/, '');
    const absolute = resolve(cwd, written);
    if (seen.has(absolute)) continue;
    seen.add(absolute);
    const shown = absolute === cwd ? '.' : (pathInside(absolute, cwd) ?? absolute);
    let stat: ReturnType<typeof statSync>;
    try {
      stat = statSync(absolute);
    } catch {
      continue; // not a path: an @mention of something else
    }
    if (stat.isDirectory()) {
      const entries = readdirSync(absolute, { withFileTypes: true })
        .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
        .sort();
      const listed = entries.slice(0, MAX_FOLDER_ENTRIES).join('\n');
      const more =
        entries.length > MAX_FOLDER_ENTRIES ? `\n… ${entries.length - MAX_FOLDER_ENTRIES} more` : '';
      blocks.push(`<folder path="${shown}">\n${listed}${more}\n</folder>`);
      attached.push(`${shown}/`);
      continue;
    }
    if (IMAGE_EXTENSIONS.has(extname(absolute).toLowerCase())) {
      images.push({ path: absolute, shown });
      continue;
    }
    if (stat.size > MAX_FILE_BYTES) {
      skipped.push(
        `${shown} (${Math.round(stat.size / 1024)} KB: too large to attach; the model can read it)`,
      );
      continue;
    }
    const bytes = readFileSync(absolute);
    if (bytes.includes(0)) {
      skipped.push(`${shown} (binary)`);
      continue;
    }
    blocks.push(`<file path="${shown}">\n${bytes.toString('utf8').replace(/\s+$/, '')}\n</file>`);
    attached.push(shown);
  }
  const text = blocks.length > 0 ? `${prompt}\n\nAttached:\n${blocks.join('\n\n')}` : prompt;
  return { text, attached, skipped, images };
}
