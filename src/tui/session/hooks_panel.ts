import type { HookGroup } from '../../config/hooks/types.js';
import type { Line } from '../render/style.js';

/**
 * `/hooks`: each hook by event, with its matcher, command, timeout, whether it fails closed and
 * the file it comes from; and, in a folder not trusted yet, that the workspace's hooks wait.
 */
export function hooksPanel(
  groups: readonly HookGroup[],
  untrustedHooks: boolean,
): { title: string; lines: Line[] } {
  const waiting: Line[] = untrustedHooks
    ? [[{ text: '  The workspace’s hooks wait for trust: lathe trust', style: { color: 'warning' } }]]
    : [];
  if (groups.length === 0)
    return { title: 'No hooks are set (settings "hooks"; see docs/extending.md).', lines: waiting };
  const lines: Line[] = [];
  let event = '';
  for (const group of groups) {
    if (group.event !== event) {
      event = group.event;
      lines.push([{ text: `  ${event}`, style: { bold: true } }]);
    }
    const matcher = group.matcher.trim() === '' || group.matcher === '*' ? 'every one' : group.matcher;
    for (const hook of group.hooks) {
      const extras = [`${hook.timeoutSeconds} s`, ...(hook.failClosed ? ['failClosed'] : [])].join(', ');
      lines.push([
        { text: `    ${matcher}  ` },
        { text: hook.command, style: { color: 'accent' } },
        { text: `  (${extras})`, style: { color: 'muted' } },
      ]);
      lines.push([{ text: `      from ${group.source}`, style: { color: 'muted' } }]);
    }
  }
  const count = groups.reduce((n, g) => n + g.hooks.length, 0);
  return { title: `${count} hook${count === 1 ? '' : 's'}`, lines: [...lines, ...waiting] };
}
