/** A notice line for the conversation. */
export const notice = (text: string, tone: 'info' | 'warn' | 'error' = 'info') => ({
  kind: 'notice' as const,
  tone,
  text,
});
