/**
 * A small HTTP server on 127.0.0.1 for unit tests: it records every request and answers through a handler,
 * which may reply with a status/headers/body or take over the raw socket for fault injection.
 */
import * as http from 'node:http';
import { listenOnLoopback } from './listen';

export interface RecordedRequest {
  method: string;
  url: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
  json?: unknown;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string or Buffer as is. */
  body?: unknown;
}

export type Handler = (request: RecordedRequest, res: http.ServerResponse) => Reply | void | Promise<Reply | void>;

export interface FixtureServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  handle(handler: Handler): void;
  close(): Promise<void>;
}

export async function startFixtureServer(handler: Handler = () => ({ status: 404, body: { message: 'no handler' } })): Promise<FixtureServer> {
  let current = handler;
  const requests: RecordedRequest[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const parsed = new URL(req.url ?? '/', 'http://127.0.0.1');
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      url: req.url ?? '',
      path: parsed.pathname,
      query: parsed.searchParams,
      headers: req.headers,
      body,
    };
    try {
      recorded.json = body ? JSON.parse(body) : undefined;
    } catch {
      // not JSON: the body text is recorded
    }
    requests.push(recorded);
    const reply = await current(recorded, res);
    if (!reply || res.headersSent || res.writableEnded) return;
    const isText = typeof reply.body === 'string' || Buffer.isBuffer(reply.body);
    const payload = reply.body === undefined ? '' : isText ? (reply.body as string | Buffer) : JSON.stringify(reply.body);
    res.writeHead(reply.status ?? 200, {
      'content-type': isText ? 'text/plain' : 'application/json; charset=utf-8',
      ...reply.headers,
    });
    res.end(payload);
  });
  const { port, close } = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    handle(next) {
      current = next;
    },
    close,
  };
}

/** Routes by "METHOD /path" (path without the query); unknown routes answer Unleash's own unknown-path 404. */
export function routes(table: Record<string, Reply | ((request: RecordedRequest) => Reply)>): Handler {
  return (request) => {
    const entry = table[`${request.method} ${request.path}`];
    if (!entry) {
      return {
        status: 404,
        body: {
          id: 'e0c7a1d2',
          name: 'NotFoundError',
          message: `The path you were looking for (${request.path}) is not available.`,
        },
      };
    }
    return typeof entry === 'function' ? entry(request) : entry;
  };
}
