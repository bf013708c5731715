import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

/**
 * A local stand-in for the OpenAI images API (POST /images/generations, JSON; POST
 * /images/edits, multipart), on 127.0.0.1. It answers every request with the same PNG, in the
 * API's `{data: [{b64_json}]}` shape, and records what it was asked.
 */
export interface FakeImageServer {
  /** The base URL, for OPENAI_BASE_URL. */
  url: string;
  /** The PNG it answers with. */
  png: Buffer;
  requests: Array<{ path: string; contentType: string; body: string }>;
  /** The environment of a run that draws with it. */
  env: NodeJS.ProcessEnv;
  close(): Promise<void>;
}

export async function startFakeImageServer(options: { status?: number } = {}): Promise<FakeImageServer> {
  const png = await sharp({
    create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 60, b: 20 } },
  })
    .png()
    .toBuffer();
  const requests: FakeImageServer['requests'] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({
        path: request.url ?? '/',
        contentType: request.headers['content-type'] ?? '',
        body: Buffer.concat(chunks).toString('latin1'),
      });
      if (options.status) {
        response.writeHead(options.status, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            error: {
              message: 'Your prompt was rejected by the safety system.',
              type: 'invalid_request_error',
            },
          }),
        );
        return;
      }
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ created: 1_700_000_000, data: [{ b64_json: png.toString('base64') }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return {
    url,
    png,
    requests,
    env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: url },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
