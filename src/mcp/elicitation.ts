import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/** A value a form field takes: the primitive types MCP elicitation schemas allow. */
export type ElicitedValue = string | number | boolean | string[];

/** A field of a form elicitation, as the server's `requestedSchema` describes it. */
export interface ElicitedField {
  name: string;
  type: 'string' | 'number' | 'integer' | 'boolean' | 'array';
  title?: string;
  description?: string;
  required: boolean;
  default?: ElicitedValue;
  /** The allowed values of an enum field. */
  options?: string[];
  /** A number's bounds. */
  minimum?: number;
  maximum?: number;
  /** A string's least and greatest length, or a multi-select's number of choices. */
  minLength?: number;
  maxLength?: number;
}

/** What a server asks of the user: fields to fill in, or a link to open. */
export type ElicitationRequest =
  | {
      server: string;
      mode: 'form';
      message: string;
      fields: ElicitedField[];
      /** The schema as the server sent it (passed on as it is to an editor). */
      requestedSchema: ElicitationSchema;
    }
  | {
      server: string;
      mode: 'url';
      message: string;
      url: string;
      elicitationId: string;
      /** Settles when the server says the flow is done (`notifications/elicitation/complete`); it may never. */
      completed: Promise<void>;
    };

/** A form's schema: its fields and which of them are required. */
export interface ElicitationSchema {
  type?: 'object';
  properties: Record<string, unknown>;
  required?: string[];
}

export type ElicitationAnswer =
  | { action: 'accept'; content?: Record<string, ElicitedValue> }
  | { action: 'decline' }
  | { action: 'cancel' };

/** Asks the user (a form in the UI, `--answers` headless, the editor over ACP). */
export type Elicit = (request: ElicitationRequest, signal: AbortSignal) => Promise<ElicitationAnswer>;

/** What the client declares: forms, with the schema's defaults applied (`withDefaults`), and links. */
export const ELICITATION_CAPABILITY = { form: { applyDefaults: true }, url: {} } as const;

type Types = typeof import('@modelcontextprotocol/sdk/types.js');

/**
 * Answers `elicitation/create` for one server through `elicit`; with nothing to ask the user
 * through, every request is declined (the server goes on without the answer).
 */
export function answerElicitations(client: Client, types: Types, server: string, elicit?: Elicit): void {
  const completions = new Completions();
  client.setNotificationHandler(types.ElicitationCompleteNotificationSchema, (notification) =>
    completions.complete(notification.params.elicitationId),
  );
  client.setRequestHandler(types.ElicitRequestSchema, async (request, extra) => {
    if (!elicit) return { action: 'decline' };
    const params = request.params;
    const asked: ElicitationRequest =
      params.mode === 'url'
        ? {
            server,
            mode: 'url',
            message: params.message,
            url: params.url,
            elicitationId: params.elicitationId,
            completed: completions.awaited(params.elicitationId),
          }
        : {
            server,
            mode: 'form',
            message: params.message,
            fields: formFields(params.requestedSchema),
            requestedSchema: params.requestedSchema as ElicitationSchema,
          };
    const answer = await elicit(asked, extra.signal);
    return asked.mode === 'form' ? withDefaults(answer, asked.fields) : answer;
  });
}

/**
 * An accepted form with the schema's defaults for the fields the answer left out. The SDK's own
 * `applyDefaults` runs only when a request names `mode: "form"` and the answer has content; a
 * request without `mode` is a form too, and `yes` accepts with no content.
 */
export function withDefaults(answer: ElicitationAnswer, fields: readonly ElicitedField[]): ElicitationAnswer {
  if (answer.action !== 'accept') return answer;
  const content: Record<string, ElicitedValue> = { ...answer.content };
  for (const field of fields)
    if (field.default !== undefined && !(field.name in content)) content[field.name] = field.default;
  return { action: 'accept', content };
}

/** The link flows a server may still say are complete, by their id. */
class Completions {
  private readonly waiting = new Map<string, () => void>();

  awaited(id: string): Promise<void> {
    return new Promise((resolve) => this.waiting.set(id, resolve));
  }

  complete(id: string): void {
    this.waiting.get(id)?.();
    this.waiting.delete(id);
  }
}

/** The fields of a form's schema, in the order the server gives them. */
export function formFields(schema: {
  properties: Record<string, unknown>;
  required?: string[];
}): ElicitedField[] {
  return Object.entries(schema.properties).map(([name, raw]) => {
    const property = raw as Record<string, unknown>;
    const options = enumOptions(property);
    return {
      name,
      type: (property.type as ElicitedField['type']) ?? 'string',
      ...(typeof property.title === 'string' ? { title: property.title } : {}),
      ...(typeof property.description === 'string' ? { description: property.description } : {}),
      required: schema.required?.includes(name) ?? false,
      ...(property.default !== undefined ? { default: property.default as ElicitedValue } : {}),
      ...(options ? { options } : {}),
      ...bounds(property),
    };
  });
}

/** An enum's values: `enum`, `oneOf` of `const`s, or the `items` of a multi-select. */
function enumOptions(property: Record<string, unknown>): string[] | undefined {
  const from = (value: unknown): string[] | undefined => {
    const holder = value as { enum?: unknown; oneOf?: unknown; anyOf?: unknown } | undefined;
    if (Array.isArray(holder?.enum)) return holder.enum.map(String);
    const choices = holder?.oneOf ?? holder?.anyOf;
    if (Array.isArray(choices)) return choices.map((c) => String((c as { const?: unknown }).const));
    return undefined;
  };
  return from(property) ?? from(property.items);
}

/** The numeric bounds a property gives (`minimum`, `maximum`, `minLength`, `maxLength`, `minItems`, `maxItems`). */
function bounds(property: Record<string, unknown>): Partial<ElicitedField> {
  const found: Partial<ElicitedField> = {};
  const take = (key: 'minimum' | 'maximum' | 'minLength' | 'maxLength', ...names: string[]) => {
    const value = names.map((name) => property[name]).find((v) => typeof v === 'number');
    if (typeof value === 'number') found[key] = value;
  };
  take('minimum', 'minimum');
  take('maximum', 'maximum');
  take('minLength', 'minLength', 'minItems');
  take('maxLength', 'maxLength', 'maxItems');
  return found;
}
