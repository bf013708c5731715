import type { Node, ParseError } from 'jsonc-parser';

type JsoncParser = Pick<typeof import('jsonc-parser'), 'findNodeAtOffset' | 'printParseErrorCode'>;
type ErrorName = ReturnType<JsoncParser['printParseErrorCode']>;

/** Where an error is: the text it is in and what jsonc-parser made of the text around it. */
interface Place {
  text: string;
  offset: number;
  /** The token jsonc-parser stopped at, as written; empty at the end of the file. */
  token: string;
  /** The innermost node at the error, if it is inside the value. */
  node: Node | undefined;
  afterValue: boolean;
}

const PROPERTY_NAME = 'expected a "quoted" property name or }';
const AFTER_VALUE = 'unexpected text after the end of the value';
const RAW_BREAK = 'a string cannot hold a raw line break or control character';
const BAD_ESCAPE = 'a string holds an invalid \\ escape';

const atEnd = (place: Place) => place.offset >= place.text.length;
const unexpected = (place: Place) =>
  atEnd(place)
    ? 'the file ends where a value was expected'
    : `unexpected ${JSON.stringify(place.token)} where a value was expected`;
/** Where a value or a property name was due: an object's next thing is a property name. */
const valueOrName = (place: Place) => (place.node?.type === 'object' ? PROPERTY_NAME : unexpected(place));
const notANumber = (place: Place) => `${JSON.stringify(place.token)} is not a number`;

/** What each of jsonc-parser's errors says, in the words lathe's settings errors use. */
const MESSAGES: Partial<Record<ErrorName, (place: Place) => string>> = {
  InvalidSymbol: (place) => (place.afterValue ? AFTER_VALUE : valueOrName(place)),
  ValueExpected: valueOrName,
  PropertyNameExpected: () => PROPERTY_NAME,
  ColonExpected: (place) => `expected : after the property name "${keyOf(place.node)}"`,
  CommaExpected: separatorExpected,
  CloseBraceExpected: (place) => (atEnd(place) ? 'the file ends inside an object' : separatorExpected(place)),
  CloseBracketExpected: (place) => (atEnd(place) ? 'the file ends inside a list' : separatorExpected(place)),
  EndOfFileExpected: () => AFTER_VALUE,
  UnexpectedEndOfComment: () => 'a /* comment is never closed',
  UnexpectedEndOfString: (place) =>
    rawCharacter(place) === undefined ? 'a string is never closed' : RAW_BREAK,
  InvalidCharacter: () => RAW_BREAK,
  InvalidEscapeCharacter: () => BAD_ESCAPE,
  InvalidUnicode: () => BAD_ESCAPE,
  UnexpectedEndOfNumber: notANumber,
  InvalidNumberFormat: notANumber,
};

/**
 * One line saying what is wrong at a parse error, by the error's name (`printParseErrorCode`)
 * and where it is: a missing comma names the property before it, as the user reads the file.
 * The offset is the error's, or that of the raw character that broke a string.
 */
export function describeJsoncError(
  text: string,
  root: Node | undefined,
  error: ParseError,
  parser: JsoncParser,
): { message: string; offset: number } {
  const name = parser.printParseErrorCode(error.error);
  const afterValue = root !== undefined && error.offset >= root.offset + root.length;
  const place: Place = {
    text,
    offset: error.offset,
    token: text.slice(error.offset, error.offset + error.length),
    // At the value's last character (a file ending after a key) the node ending there.
    node: root && parser.findNodeAtOffset(root, error.offset, afterValue),
    afterValue,
  };
  const describe = MESSAGES[name];
  // A name this table does not know (a later jsonc-parser's): its words, "invalid comment token".
  const message = describe ? describe(place) : name.replace(/(?<=[a-z])(?=[A-Z])/g, ' ').toLowerCase();
  return { message, offset: (message === RAW_BREAK && rawCharacter(place)) || error.offset };
}

/** A line break or control character written raw in a string jsonc-parser stopped at. */
function rawCharacter(place: Place): number | undefined {
  const match = /[\x00-\x1f]/.exec(place.text.slice(place.offset, place.offset + place.token.length + 1));
  return match ? place.offset + match.index : undefined;
}

/** A list or object goes on without its comma or closing bracket: after what, in which. */
function separatorExpected(place: Place): string {
  let container = place.node;
  while (container && !(isContainer(container) && container.offset < place.offset))
    container = container.parent;
  if (container?.type === 'array') return 'expected , or ] after a list item';
  const before = container?.children?.filter((property) => property.offset < place.offset).at(-1);
  return before ? `expected , or } after "${keyOf(before)}"` : 'expected , or }';
}

const isContainer = (node: Node) => node.type === 'object' || node.type === 'array';

function keyOf(node: Node | undefined): string {
  let property = node;
  while (property && property.type !== 'property') property = property.parent;
  return String(property?.children?.[0]?.value ?? '');
}
