import type { Checkpoint, CheckpointStore, RestoreResult } from '../../checkpoints/index.js';
import { conversationAt } from '../../runtime/checkpoint_service.js';
import type { CommandHost } from './command_host.js';

type Tone = 'info' | 'error';

function say(session: CommandHost, text: string, tone: Tone = 'info'): void {
  session.store.add({ kind: 'notice', tone, text });
}

/** The checkpoints of the workspace the session works in, or undefined (said why) when they are off. */
function storeOf(session: CommandHost): CheckpointStore | undefined {
  const { checkpoints, place } = session.runtime;
  const store = checkpoints.store(place.workspace);
  if (!store) say(session, `Checkpoints are off: ${checkpoints.off}.`, 'error');
  return store;
}

function changeLine(result: RestoreResult): string {
  const { written, removed, leftAlone } = result.change;
  const left =
    leftAlone.length > 0 ? ` Left as they are (too large or unreadable): ${leftAlone.join(', ')}.` : '';
  return `${written} file(s) written back, ${removed} removed.${left} /rewind ${result.before.id} takes this back.`;
}

/** `/undo`: the files as they were before the last prompt that changed them. */
export async function undoLastTurn(session: CommandHost): Promise<void> {
  const store = storeOf(session);
  if (!store) return;
  const result = await store.undo(session.runtime.sessionId);
  if (!result) return say(session, 'Nothing to undo: the files are as they were before every prompt here.');
  say(
    session,
    `Undone: the files are as before "${result.target.label}" (${result.target.id}). ${changeLine(result)}`,
  );
}

const WHAT = {
  both: 'files and conversation',
  files: 'files only',
  conversation: 'conversation only',
} as const;
type What = keyof typeof WHAT;

/**
 * `/rewind [id]`: pick a checkpoint (the newest first), then what to take back to it: the files,
 * the conversation (cut to before that prompt), or both.
 */
export async function rewindToCheckpoint(session: CommandHost, args: string): Promise<void> {
  const store = storeOf(session);
  if (!store) return;
  const target = args.trim() ? await store.find(args.trim()) : await pickCheckpoint(session, store);
  if (!target) return;
  const conversation = conversationAt(session.conversation, target.conversation, session.runtime.sessionId);
  const choices = (Object.keys(WHAT) as What[])
    .filter((what) => what === 'files' || 'messages' in conversation)
    .map((what) => ({ label: WHAT[what], value: what }));
  const what =
    choices.length === 1
      ? 'files'
      : ((await session.store.ask<string | undefined>({
          kind: 'pick',
          title: `Rewind to ${target.id} (${target.label}): restore what?`,
          choices,
          cancelValue: undefined,
        })) as What | undefined);
  if (!what) return;
  if (what !== 'conversation') {
    const result = await store.restore(target, session.runtime.sessionId);
    say(session, `Files restored to ${target.id}. ${changeLine(result)}`);
  }
  if (what !== 'files' && 'messages' in conversation) {
    session.rewindConversation(conversation.messages);
    say(session, `The conversation now ends before "${target.label}".`);
  } else if ('reason' in conversation && what === 'files' && choices.length === 1) {
    say(session, `The conversation stays as it is: ${conversation.reason}.`);
  }
}

async function pickCheckpoint(session: CommandHost, store: CheckpointStore): Promise<Checkpoint | undefined> {
  const all = (await store.list()).reverse().slice(0, 30);
  if (all.length === 0) {
    say(session, 'No checkpoints of this workspace yet.');
    return undefined;
  }
  const picked = await session.store.ask<string | undefined>({
    kind: 'pick',
    title: 'Rewind to which checkpoint? (taken before each prompt and each change)',
    choices: all.map((c) => ({
      label: `${c.id} ${c.kind === 'turn' ? 'prompt' : c.kind}: ${c.label.slice(0, 60)}`,
      value: c.commit,
      hint: new Date(c.at).toLocaleTimeString(),
    })),
    cancelValue: undefined,
  });
  return all.find((c) => c.commit === picked);
}
