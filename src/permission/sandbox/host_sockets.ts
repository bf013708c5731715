import { type Dirent, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Unix sockets of system services under /run (Docker, containerd, the system D-Bus…): a
 * command that reaches one can have the service run things outside the sandbox, and a read-only
 * mount does not stop `connect()`. /run/user is not searched: the sandbox hides it whole.
 */
export function systemSockets(root = '/run', depth = 4): string[] {
  const found: string[] = [];
  const visit = (dir: string, level: number) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isSocket()) found.push(path);
      else if (entry.isDirectory() && level < depth && path !== '/run/user') visit(path, level + 1);
    }
  };
  visit(root, 1);
  return found;
}
