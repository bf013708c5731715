/** The actions of browser_action: the tool's declaration reads them without loading the browser's code. */
export const BROWSER_ACTIONS = [
  'launch',
  'navigate',
  'back',
  'click',
  'type',
  'press',
  'hover',
  'select',
  'scroll',
  'wait',
  'snapshot',
  'screenshot',
  'console',
  'network',
  'evaluate',
  'close',
] as const;
export type BrowserActionName = (typeof BROWSER_ACTIONS)[number];
