// A stand-in for the user's browser, run as $BROWSER: it follows the authorization URL (the
// authorization server approves at once) to the loopback redirect, as a user clicking "Allow".
// OAUTH_BROWSER_LOG names a file each opened URL is appended to; OAUTH_BROWSER_FORGE_STATE
// swaps the redirect's state for another.
import { appendFileSync } from 'node:fs';

const url = process.argv[2];
if (process.env.OAUTH_BROWSER_LOG) appendFileSync(process.env.OAUTH_BROWSER_LOG, `${url}\n`);
const answer = await fetch(url, { redirect: 'manual' });
const location = answer.headers.get('location');
if (!location) process.exit(1);
const redirect = new URL(location, url);
if (process.env.OAUTH_BROWSER_FORGE_STATE) redirect.searchParams.set('state', 'forged-state');
await fetch(redirect);
