import { FieldError } from './field_error.js';
import type { Fields } from './fields.js';
import { parseYaml } from './parsers.js';
import { readPlainYaml } from './plain_yaml.js';

export interface MarkdownAgent {
  data: Fields;
  /** The text after the frontmatter: the child's instructions. */
  body: string;
  /**
   * Set when the frontmatter is not valid YAML but reads as plain `key: value` lines (as many
   * hand-written agent files do, with colons in a description): what the YAML parser said.
   */
  notYaml?: string;
}

const OPENING = /^---[ \t]*\n/;
const CLOSING = /^(?:---|\.\.\.)[ \t]*$/m;

/** Splits an agent's Markdown file into its YAML frontmatter and its body. */
export function readMarkdownAgent(text: string): MarkdownAgent {
  const normal = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (!OPENING.test(normal))
    throw new FieldError('frontmatter', 'is missing: the file must start with a block between --- lines');
  const rest = normal.replace(OPENING, '');
  const close = CLOSING.exec(rest);
  if (!close) throw new FieldError('frontmatter', 'has no closing --- line');
  const yaml = rest.slice(0, close.index);
  const body = rest.slice(close.index + close[0].length).trim();
  const plain = readPlainYaml(yaml);
  if (plain) return { data: plain, body };
  try {
    return { data: yamlMapping(yaml), body };
  } catch (error) {
    if (error instanceof FieldError) throw error;
    const said = (error as Error).message.split('\n')[0].replace(/:$/, '');
    const data = plainLines(yaml);
    if (!data) throw new FieldError('frontmatter', `is not valid YAML (${said})`);
    return { data, body, notYaml: said };
  }
}

function yamlMapping(yaml: string): Fields {
  const value = parseYaml(yaml);
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw new FieldError('frontmatter', 'must be a set of `key: value` lines');
  return value as Fields;
}

const unquote = (text: string) => {
  const quoted = /^(["'])([\s\S]*)\1$/.exec(text);
  return quoted ? quoted[2] : text;
};

/**
 * Frontmatter read as top-level `key: value` lines, with indented `- item` lines as a list and
 * other indented lines continuing the value; undefined when the text has any other shape.
 */
function plainLines(yaml: string): Fields | undefined {
  const data: Fields = {};
  let key: string | undefined;
  for (const line of yaml.split('\n')) {
    if (line.trim() === '' || /^\s*#/.test(line)) continue;
    const field = /^([A-Za-z_][\w-]*):(?:[ \t]+(.*))?$/.exec(line);
    if (field) {
      key = field[1];
      if (key in data) return undefined;
      const value = (field[2] ?? '').trim();
      const flowList = /^\[(.*)\]$/.exec(value);
      data[key] = flowList
        ? flowList[1].split(',').map((item) => unquote(item.trim()))
        : value === ''
          ? undefined
          : unquote(value);
      continue;
    }
    if (!key || !/^\s/.test(line)) return undefined;
    const item = /^\s+-\s+(.*)$/.exec(line);
    const current = data[key];
    if (item && (current === undefined || Array.isArray(current)))
      data[key] = [...((current as string[] | undefined) ?? []), unquote(item[1].trim())];
    else if (typeof current === 'string' || current === undefined)
      data[key] = current === undefined ? line.trim() : `${current} ${line.trim()}`;
    else return undefined;
  }
  return Object.keys(data).length > 0 ? data : undefined;
}
