import { memo } from 'react';
import { childPanelLines } from '../render/child_line.js';
import type { ChildView } from '../state/items.js';
import { LinesView } from './lines_view.js';
import { spinnerFrame, useNow } from './use_terminal.js';

/** The running child agents, a live line each (with their latest steps when open); ticks while any runs. */
export const ChildrenPanel = memo(function ChildrenPanel({
  agents,
  open,
  width,
}: {
  agents: ChildView[];
  open: boolean;
  width: number;
}) {
  const now = useNow(100, agents.length > 0);
  if (agents.length === 0) return null;
  return <LinesView lines={childPanelLines(agents, open, width, now, spinnerFrame(now))} />;
});
