import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { Config } from '../../../platform/config.js';
import { trustProxyOption } from '../../../platform/http/rate-limit.js';

type Trust = (address: string, hop: number) => boolean;

/**
 * The client address of a raw request (a WebSocket upgrade, which Fastify never sees) exactly as Fastify's
 * `request.ip` reads it under the same TRUST_PROXY: the same proxy-addr package Fastify uses, so both
 * transports fill the same rate-limit buckets.
 */
export function clientAddress(trust: Config['trustProxy']): (request: IncomingMessage) => string {
  const option = trustProxyOption(trust);
  if (option === false) return (request) => request.socket.remoteAddress ?? '';
  const fn: Trust = typeof option === 'function' ? option : option === true ? () => true : proxyAddr.compile(option);
  return (request) => proxyAddr(request, fn);
}
