import type { RawResponse } from './pinned_request.js';

/** Signs of a challenge page, by the service that sends it. */
const MARKERS: Array<[string, RegExp]> = [
  [
    'Cloudflare',
    /cf-chl-|challenge-platform|<title>Just a moment\.\.\.<\/title>|Attention Required! \| Cloudflare/i,
  ],
  ['Imperva', /_Incapsula_Resource|Incapsula incident ID/i],
  ['Akamai', /Access Denied<\/H1>[\s\S]{0,400}Reference&#32;&#35;/i],
  ['DataDome', /geo\.captcha-delivery\.com|datadome/i],
  ['PerimeterX', /px-captcha|_pxCaptcha/i],
  ['AWS WAF', /awswaf|aws-waf-token/i],
];

/**
 * The bot-protection service that answered instead of the page, or undefined. A challenge is told
 * apart from a page by its header (`cf-mitigated: challenge`) or the markers of its script.
 */
export function botProtection(response: RawResponse): string | undefined {
  if (response.headers['cf-mitigated'] === 'challenge') return 'Cloudflare';
  if (
    response.status !== 403 &&
    response.status !== 503 &&
    response.status !== 429 &&
    response.status !== 202
  )
    return undefined;
  const head = response.body.subarray(0, 64 * 1024).toString('latin1');
  return MARKERS.find(([, marker]) => marker.test(head))?.[0];
}
