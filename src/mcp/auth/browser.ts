import { spawn } from 'node:child_process';

/**
 * Whether a browser can be opened on the user's screen: `$BROWSER` says how (scripts and tests
 * set it); a Mac or Windows desktop has one unless reached over SSH; elsewhere it takes a
 * display. Over SSH without a display, the user opens the link on their own machine.
 */
export function canOpenBrowser(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): boolean {
  if (env.BROWSER) return true;
  const overSsh = Boolean(env.SSH_CONNECTION || env.SSH_TTY);
  if (platform === 'darwin' || platform === 'win32') return !overSsh;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

/** The command that opens `url`: `$BROWSER` (its first entry; `%s` stands for the URL), else the system's opener. */
function browserCommand(url: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform): [string, string[]] {
  const configured = env.BROWSER?.split(':').find((c) => c.trim() !== '');
  if (configured) {
    // The URL goes in as "$1", never into the command text: no quoting can break out of it.
    const script = configured.includes('%s') ? configured.replaceAll('%s', '"$1"') : `${configured} "$1"`;
    return ['/bin/sh', ['-c', script, 'sh', url]];
  }
  if (platform === 'darwin') return ['open', [url]];
  if (platform === 'win32') return ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]];
  return ['xdg-open', [url]];
}

/** Opens `url` in the user's browser; resolves false when the opener could not be started. */
export function openBrowser(
  url: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): Promise<boolean> {
  const [command, args] = browserCommand(url, env, platform);
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true, env });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}
