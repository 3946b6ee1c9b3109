import { isIP } from 'node:net';
import type { Reader } from './values.js';

/** How the HTTP server listens, what it accepts from clients, and what it tells browsers. */
export interface ServerSettings {
  port: number;
  host: string;
  bodyLimitBytes: number;
  /** Fastify's `trustProxy`: which hops' `X-Forwarded-For` to believe for the client address. */
  trustProxy: false | number | string[];
  /** Browser-facing HTTP (src/platform/http/cors.ts, caching.ts). */
  http: {
    /** Origins allowed to call partner paths and /graphql from a browser (`*` = any); public paths allow any. */
    corsOrigins: string[];
    /** `max-age` of cacheable answers: public lookups, catalogue answers, free GraphQL GET answers. */
    cacheMaxAgeSeconds: number;
    /**
     * The server's limits on clients (src/platform/http/server-options.ts): a request (headers and body)
     * must arrive within `requestTimeoutMs`, its headers within `headersTimeoutMs`; an idle keep-alive
     * connection is closed after `keepAliveTimeoutMs` (longer than a proxy's own idle timeout), any
     * connection silent both ways for `idleTimeoutMs` (0 = never); at most `maxConnections` are open at
     * once (0 = no cap). A handler's own time and WebSockets are not limited by these.
     */
    requestTimeoutMs: number;
    headersTimeoutMs: number;
    keepAliveTimeoutMs: number;
    idleTimeoutMs: number;
    maxConnections: number;
  };
}

/** What proxy-addr (behind Fastify's `trustProxy`) accepts: an address, a CIDR, or a named range. */
function isProxyAddress(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  return /^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

function trustProxy(read: Reader): ServerSettings['trustProxy'] {
  const raw = read.str('TRUST_PROXY');
  if (raw === undefined || ['false', 'off', 'no', '0'].includes(raw.toLowerCase())) return false;
  if (/^\d+$/.test(raw)) return read.int('TRUST_PROXY', 0, 1, 32);
  const entries = read.list('TRUST_PROXY').map((entry) => entry.trim());
  const bad = entries.find((entry) => !isProxyAddress(entry));
  if (bad === undefined) return entries;
  read.problem(
    `TRUST_PROXY must be false, a hop count, or a comma-separated list of proxy addresses/CIDRs, got "${bad}"`,
  );
  return false;
}

/** An origin is exactly scheme://host[:port], as browsers send it in the Origin header. */
function corsOrigins(read: Reader): string[] {
  const origins = read
    .list('CORS_ORIGINS')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of origins) {
    if (origin === '*') continue;
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {}
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.origin !== origin) {
      read.problem(
        `CORS_ORIGINS must be * or a comma-separated list of origins like https://app.example.com, got "${origin}"`,
      );
    }
  }
  return origins;
}

export function serverSection(read: Reader): ServerSettings {
  // A slow client (a body trickling in a byte at a time) holds a connection only this long; node:http
  // requires the headers' limit to be within the whole request's.
  const requestTimeoutMs = read.int('HTTP_REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000);
  const headersTimeoutMs = read.int('HTTP_HEADERS_TIMEOUT_MS', Math.min(10_000, requestTimeoutMs), 100, 3_600_000);
  if (headersTimeoutMs > requestTimeoutMs) {
    read.problem(
      `HTTP_HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not exceed HTTP_REQUEST_TIMEOUT_MS (${requestTimeoutMs})`,
    );
  }
  return {
    port: read.int('PORT', 4000, 0, 65535),
    host: read.str('HOST') ?? '0.0.0.0',
    bodyLimitBytes: read.int('BODY_LIMIT_BYTES', 1_048_576, 1024, 100 * 1_048_576),
    trustProxy: trustProxy(read),
    http: {
      corsOrigins: corsOrigins(read),
      cacheMaxAgeSeconds: read.int('HTTP_CACHE_MAX_AGE_SECONDS', 60, 0, 86_400),
      requestTimeoutMs,
      headersTimeoutMs,
      // Above the 60 s idle timeout of nginx and AWS load balancers, so the proxy, not this server, closes
      // an idle connection (a server closing one as the proxy reuses it fails that request with a 502).
      keepAliveTimeoutMs: read.int('HTTP_KEEP_ALIVE_TIMEOUT_MS', 72_000, 1000, 3_600_000),
      idleTimeoutMs: read.int('HTTP_IDLE_TIMEOUT_MS', 120_000, 0, 3_600_000),
      maxConnections: read.int('HTTP_MAX_CONNECTIONS', 10_000, 0, 1_000_000),
    },
  };
}
