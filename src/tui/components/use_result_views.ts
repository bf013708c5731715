import { useStdin, useStdout } from 'ink';
import { useEffect, useRef } from 'react';
import type { SessionControls } from '../session/starting.js';
import { ResultViews } from '../viewer/result_views.js';

/**
 * The session's result views (the viewer, the pager) for the UI's keys. The pager gets the
 * terminal's input: Ink stops reading and leaves raw mode, and takes both back after.
 */
export function useResultViews(session: SessionControls): ResultViews {
  const { stdout } = useStdout();
  const { stdin, setRawMode } = useStdin();
  const views = useRef<ResultViews | undefined>(undefined);
  views.current ??= new ResultViews(session, stdout, {
    release: () => {
      setRawMode(false);
      // Paused, the stream stops reading the terminal, so every key goes to the pager.
      stdin.pause();
    },
    takeBack: () => setRawMode(true),
  });
  // The UI ending with the viewer open leaves the terminal's own screen too.
  useEffect(() => () => views.current?.close(), []);
  return views.current;
}
