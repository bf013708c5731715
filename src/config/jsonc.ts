/**
 * JSON with comments (JSONC), as editors write settings files: `//` and `/* *\/` comments,
 * trailing commas and a leading byte-order mark are accepted. A small recursive-descent parser
 * rather than JSON.parse, so every error has a line and column (JSON.parse's messages on Node
 * 20 often have neither).
 */

export interface JsoncError {
  message: string;
  line: number;
  column: number;
}

export type JsoncResult = { ok: true; value: unknown } | { ok: false; error: JsoncError };

class ParseFailure extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERALS: Array<[string, unknown]> = [
  ['true', true],
  ['false', false],
  ['null', null],
];

class Parser {
  private at = 0;

  constructor(private readonly text: string) {}

  parseDocument(): unknown {
    this.skipSpace();
    const value = this.parseValue();
    this.skipSpace();
    if (this.at < this.text.length) this.fail('unexpected text after the end of the value');
    return value;
  }

  private fail(message: string, offset = this.at): never {
    throw new ParseFailure(message, offset);
  }

  private skipSpace(): void {
    const { text } = this;
    while (this.at < text.length) {
      const c = text[this.at];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') this.at++;
      else if (text.startsWith('//', this.at)) {
        const end = text.indexOf('\n', this.at);
        this.at = end === -1 ? text.length : end;
      } else if (text.startsWith('/*', this.at)) {
        const end = text.indexOf('*/', this.at + 2);
        if (end === -1) this.fail('a /* comment is never closed');
        this.at = end + 2;
      } else return;
    }
  }

  private parseValue(): unknown {
    const c = this.text[this.at];
    if (c === '{') return this.parseObject();
    if (c === '[') return this.parseArray();
    if (c === '"') return this.parseString();
    if (c === undefined) this.fail('the file ends where a value was expected');
    NUMBER.lastIndex = this.at;
    const number = NUMBER.exec(this.text);
    if (number) {
      this.at += number[0].length;
      return Number(number[0]);
    }
    for (const [word, value] of LITERALS) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return value;
      }
    }
    return this.fail(`unexpected ${describe(c)} where a value was expected`);
  }

  private parseObject(): Record<string, unknown> {
    const object: Record<string, unknown> = {};
    this.at++;
    for (;;) {
      this.skipSpace();
      if (this.text[this.at] === '}') {
        this.at++;
        return object;
      }
      if (this.text[this.at] !== '"') this.fail(`expected a "quoted" property name or }`);
      const key = this.parseString();
      this.skipSpace();
      if (this.text[this.at] !== ':') this.fail(`expected : after the property name "${key}"`);
      this.at++;
      this.skipSpace();
      // defineProperty: a "__proto__" key is data, as with JSON.parse, not the prototype.
      Object.defineProperty(object, key, {
        value: this.parseValue(),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      this.skipSpace();
      const next = this.text[this.at];
      if (next === ',') this.at++;
      else if (next !== '}')
        this.fail(next === undefined ? 'the file ends inside an object' : `expected , or } after "${key}"`);
    }
  }

  private parseArray(): unknown[] {
    const array: unknown[] = [];
    this.at++;
    for (;;) {
      this.skipSpace();
      if (this.text[this.at] === ']') {
        this.at++;
        return array;
      }
      array.push(this.parseValue());
      this.skipSpace();
      const next = this.text[this.at];
      if (next === ',') this.at++;
      else if (next !== ']')
        this.fail(next === undefined ? 'the file ends inside a list' : 'expected , or ] after a list item');
    }
  }

  private parseString(): string {
    const start = this.at;
    let i = start + 1;
    for (; i < this.text.length; i++) {
      const c = this.text.charCodeAt(i);
      if (c === 0x22) break;
      if (c === 0x5c) i++;
      else if (c < 0x20) this.fail('a string cannot hold a raw line break or control character', i);
    }
    if (i >= this.text.length) this.fail('a string is never closed', start);
    this.at = i + 1;
    try {
      return JSON.parse(this.text.slice(start, i + 1)) as string;
    } catch {
      return this.fail('a string holds an invalid \\ escape', start);
    }
  }
}

function describe(c: string): string {
  return /\s/.test(c) ? 'whitespace' : `"${c}"`;
}

function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** Parses JSONC text; an error says what is wrong and where (1-based line and column). */
export function parseJsonc(text: string): JsoncResult {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return { ok: true, value: new Parser(body).parseDocument() };
  } catch (error) {
    if (!(error instanceof ParseFailure)) throw error;
    return { ok: false, error: { message: error.message, ...position(body, error.offset) } };
  }
}
