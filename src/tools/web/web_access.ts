import { DEFAULT_WEB_SETTINGS } from '../../config/web_settings.js';
import type { WebAccess } from '../../tool/context/web.js';
import type { ToolContext } from '../../tool/types.js';
import { HttpCache } from '../../web/http_cache.js';

let fallback: WebAccess | undefined;

/** The runtime's web services; contexts made without a runtime get the defaults and a memory-only cache. */
export function webAccessOf(ctx: Pick<ToolContext, 'web'>): WebAccess {
  if (ctx.web) return ctx.web;
  fallback ??= { settings: DEFAULT_WEB_SETTINGS, cache: new HttpCache(undefined), env: process.env };
  return fallback;
}
