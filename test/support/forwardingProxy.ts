/**
 * A reverse proxy on 127.0.0.1 in front of a real server, for contract tests that need the real server's answers
 * except on a few paths: a rule answers a matching request itself (a 403 for a project listing the token may not
 * read, a 404 for an endpoint an older server does not have); every other request is forwarded as it came.
 */
import * as http from 'node:http';
import { request } from 'undici';
import { listenOnLoopback } from './listen';

export interface ProxyRule {
  /** Matched against the path and query, as sent. */
  path: RegExp;
  status: number;
  body: unknown;
}

export interface ForwardingProxy {
  url: string;
  /** Path and query of every request that reached the proxy, in order. */
  requests: string[];
  close(): Promise<void>;
}

export async function startForwardingProxy(target: string, rules: ProxyRule[]): Promise<ForwardingProxy> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = req.url ?? '/';
      requests.push(url);
      const rule = rules.find((candidate) => candidate.path.test(url));
      if (rule) {
        res.writeHead(rule.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(rule.body));
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = { ...req.headers };
      delete headers.host;
      delete headers.connection;
      try {
        const answer = await request(`${target}${url}`, {
          method: req.method as 'GET',
          headers,
          body: chunks.length ? Buffer.concat(chunks) : undefined,
          signal: AbortSignal.timeout(30_000),
        });
        const body = Buffer.from(await answer.body.arrayBuffer());
        const passed = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !['transfer-encoding', 'connection', 'keep-alive'].includes(name)));
        res.writeHead(answer.statusCode, passed);
        res.end(body);
      } catch (error) {
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: `proxy: ${error instanceof Error ? error.message : String(error)}` }));
      }
    })();
  });
  const { port, close } = await listenOnLoopback(server);
  return { url: `http://127.0.0.1:${port}`, requests, close };
}
