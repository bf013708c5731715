import { Text } from 'ink';
import { memo } from 'react';
import { type Line, linesToAnsi } from '../render/style.js';

/** Pre-rendered lines as one Text node: they already fit the width, so Ink does no wrapping work. */
export const LinesView = memo(function LinesView({ lines }: { lines: Line[] }) {
  if (lines.length === 0) return null;
  return <Text>{linesToAnsi(lines)}</Text>;
});
