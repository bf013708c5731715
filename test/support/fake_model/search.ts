import type { PlannedReply, ScriptedSearchResult } from './types.js';

/** A piece of a searching reply's answer, and the result it cites if any. */
export interface AnswerPiece {
  text: string;
  cites?: ScriptedSearchResult;
}

/** A searching reply's answer in pieces: the reply's text, then each cited line on its own line. */
export function answerPieces(reply: PlannedReply): AnswerPiece[] {
  const pieces: AnswerPiece[] = reply.text ? [{ text: reply.text }] : [];
  for (const result of reply.search?.results ?? []) {
    if (!result.citedText) continue;
    if (pieces.length > 0) pieces.push({ text: '\n' });
    pieces.push({ text: result.citedText, cites: result });
  }
  return pieces;
}

/** A stand-in for the opaque tokens the providers attach to results (Anthropic's encrypted_content). */
export function opaqueToken(url: string): string {
  return Buffer.from(`fake:${url}`).toString('base64');
}
