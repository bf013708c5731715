/**
 * The fake model server every test uses for model traffic: a scripted HTTP server on 127.0.0.1 that
 * speaks the real streaming wire formats of Anthropic Messages, OpenAI Chat Completions,
 * OpenAI Responses and Gemini, and records every request. The pieces live in `./fake_model/`.
 */
export { FakeModelServer, type FakeModelServerOptions } from './fake_model/server.js';
export type {
  Protocol,
  RecordedRequest,
  ReplyUsage,
  ScriptedError,
  ScriptedReply,
  ScriptedSearch,
  ScriptedSearchResult,
  ScriptedToolCall,
  ScriptedTurn,
  ToolResultRecord,
} from './fake_model/types.js';
