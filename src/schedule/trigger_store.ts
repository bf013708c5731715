import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { RemoteTriggerInfo } from '../tool/context/schedules.js';
import { JsonListStore } from './json_list_store.js';
import { triggerStorePath } from './paths.js';

/** A trigger as stored: the token only as its SHA-256, so the file never holds a usable secret. */
export interface StoredTrigger extends Omit<RemoteTriggerInfo, 'url'> {
  tokenHash: string;
}

function hashToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** Whether `token` is the trigger's, compared in constant time. */
export function tokenMatches(trigger: StoredTrigger, token: string): boolean {
  const expected = Buffer.from(trigger.tokenHash, 'hex');
  const given = hashToken(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** The remote triggers of every workspace: `<documents-root>/schedules/triggers.json`. */
export class TriggerStore {
  private readonly file: JsonListStore<StoredTrigger>;

  constructor(documentsRoot: string) {
    this.file = new JsonListStore<StoredTrigger>(triggerStorePath(documentsRoot), 'triggers');
  }

  list(): Promise<StoredTrigger[]> {
    return this.file.read();
  }

  /** Makes a trigger with a fresh random token; the token is returned here and nowhere else. */
  add(spec: {
    name?: string;
    prompt?: string;
    workspace: string;
  }): Promise<{ trigger: StoredTrigger; token: string }> {
    const token = randomBytes(32).toString('base64url');
    const trigger: StoredTrigger = {
      id: `trg_${randomBytes(6).toString('hex')}`,
      ...(spec.name ? { name: spec.name } : {}),
      ...(spec.prompt ? { prompt: spec.prompt } : {}),
      workspace: spec.workspace,
      createdAt: new Date().toISOString(),
      tokenHash: hashToken(token).toString('hex'),
    };
    return this.file.update((all) => ({ items: [...all, trigger], result: { trigger, token } }));
  }

  remove(id: string): Promise<StoredTrigger | undefined> {
    return this.file.update((all) => ({
      items: all.filter((t) => t.id !== id),
      result: all.find((t) => t.id === id),
    }));
  }

  markFired(id: string, at: Date): Promise<void> {
    return this.file.update((all) => ({
      items: all.map((t) => (t.id === id ? { ...t, lastFiredAt: at.toISOString() } : t)),
      result: undefined,
    }));
  }
}
