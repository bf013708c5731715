/** The alternate screen: what a full-screen view draws on, the conversation kept underneath. */
const ENTER_ALTERNATE = '\x1b[?1049h\x1b[H\x1b[2J';
const LEAVE_ALTERNATE = '\x1b[?1049l';

type WriteArgs = Parameters<NodeJS.WriteStream['write']>;

const screens = new WeakMap<object, TerminalScreen>();

/**
 * The terminal as Ink and a full-screen view share it. Ink writes through `forInk`; while a view
 * (the result viewer, the user's pager) has the screen, Ink's writes wait and are written in
 * order once the conversation's screen is back, so nothing of the session is drawn over the
 * view or lost.
 */
export class TerminalScreen {
  readonly forInk: NodeJS.WriteStream;
  private held: WriteArgs[] | undefined;

  constructor(readonly out: NodeJS.WriteStream) {
    this.forInk = new Proxy(out, {
      get: (target, property) => {
        if (property === 'write') return this.inkWrite;
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    screens.set(this.forInk, this);
  }

  /** The screen of the stream Ink writes to; a stream of no screen writes straight through. */
  static of(stdout: NodeJS.WriteStream): TerminalScreen {
    return screens.get(stdout) ?? new TerminalScreen(stdout);
  }

  get isFullScreen(): boolean {
    return this.held !== undefined;
  }

  private readonly inkWrite = (...args: WriteArgs): boolean => {
    if (!this.held) return this.out.write(...(args as [string]));
    this.held.push(args);
    return true;
  };

  /** Switches to the alternate screen; Ink's writes wait. */
  enterFullScreen(): void {
    if (this.held) return;
    this.held = [];
    this.out.write(ENTER_ALTERNATE);
  }

  /** Back to the conversation's screen as it was, then what Ink wrote meanwhile. */
  leaveFullScreen(): void {
    const held = this.held;
    if (!held) return;
    this.held = undefined;
    this.out.write(LEAVE_ALTERNATE);
    for (const args of held) this.out.write(...(args as [string]));
  }

  write(text: string): void {
    this.out.write(text);
  }
}
