import { setFlagsFromString } from 'node:v8';

/**
 * An interactive session lives for hours and allocates a little on every frame. By default V8
 * lets the heap grow to about twice its live size before collecting, which shows as ~200 MB for
 * a long session; tuned for size it stays near 100 MB, at about 2 ms more per frame in the
 * worst case (bench/tui.ts). The flag is read while the program runs, so it applies from here on.
 */
export function preferSmallHeap(): void {
  setFlagsFromString('--optimize-for-size');
}
