import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/** The syslog levels MCP logging uses, least severe first. */
export const LOG_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LogEntry {
  level: LogLevel;
  logger?: string;
  text: string;
  at: number;
}

/** How many messages are kept per server: `/mcp` shows the latest. */
const KEPT = 200;
/** A message's text is cut here: a server may log a whole document. */
const MAX_TEXT = 500;

type Types = typeof import('@modelcontextprotocol/sdk/types.js');

const rank = (level: string) => LOG_LEVELS.indexOf(level as LogLevel);

/**
 * The logging messages (`notifications/message`) of one server. With a level from its entry the
 * server is asked (`logging/setLevel`) to send that level and above, and lower ones are dropped
 * here too; without, whatever the server chooses to send is kept.
 */
export class ServerLog {
  private readonly entries: LogEntry[] = [];

  constructor(private readonly level?: LogLevel) {}

  /** Listens to a newly connected client and asks it for the entry's level. */
  async attach(client: Client, types: Types): Promise<void> {
    client.setNotificationHandler(types.LoggingMessageNotificationSchema, (note) => {
      const { level, logger, data } = note.params;
      this.add({ level, ...(logger ? { logger } : {}), text: logText(data), at: Date.now() });
    });
    if (this.level && client.getServerCapabilities()?.logging) {
      await client.setLoggingLevel(this.level).catch(() => {});
    }
  }

  add(entry: LogEntry): void {
    if (this.level && rank(entry.level) < rank(this.level)) return;
    this.entries.push(entry);
    if (this.entries.length > KEPT) this.entries.splice(0, this.entries.length - KEPT);
  }

  /** The latest `count` messages, oldest first. */
  latest(count = KEPT): LogEntry[] {
    return this.entries.slice(-count);
  }
}

function logText(data: unknown): string {
  const text = typeof data === 'string' ? data : JSON.stringify(data);
  const line = (text ?? '').replace(/\s+/g, ' ').trim();
  return line.length > MAX_TEXT ? `${line.slice(0, MAX_TEXT)}…` : line;
}
