import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

export interface TerminalSize {
  columns: number;
  rows: number;
}

export const sizeOf = (stdout: NodeJS.WriteStream): TerminalSize => ({
  columns: Math.max(20, stdout.columns || 80),
  rows: Math.max(8, stdout.rows || 24),
});

/** The terminal's size, following resizes (everything live re-flows to the new width). */
export function useTerminalSize(): TerminalSize {
  const { stdout } = useStdout();
  const [size, setSize] = useState(() => sizeOf(stdout));
  useEffect(() => {
    const onResize = () => setSize(sizeOf(stdout));
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}

/** The time, with a re-render every `intervalMs` while `active` (spinners, elapsed times). */
export function useNow(intervalMs: number, active: boolean): number {
  const [, tick] = useState(0);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => tick((n) => n + 1), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs, active]);
  return Date.now();
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export const spinnerFrame = (now: number) => FRAMES[Math.floor(now / 100) % FRAMES.length];
