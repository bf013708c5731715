/**
 * Orders strings by their UTF-16 code units, as git orders refs. For names of ASCII letters and
 * digits it is the order people expect, and, unlike `localeCompare`, it does not load the ICU
 * collator (about 13 ms the first time in a process).
 */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
