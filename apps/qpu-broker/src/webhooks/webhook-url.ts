import { BlockList, isIP } from 'node:net';
import { RpcError } from '#qdc/contracts';

/** Which receivers a deployment allows (QDC_WEBHOOK_ALLOW_LOCAL_HTTP, QDC_WEBHOOK_ALLOW_PRIVATE_NETWORKS). */
export interface WebhookUrlPolicy {
  allowLocalHttp: boolean;
  allowPrivateNetworks: boolean;
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Addresses a delivery never goes to unless private networks are allowed (SSRF: the broker's own network). */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv6');
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** `::ffff:10.0.0.1` is 10.0.0.1. */
const unmapped = (address: string): string => address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');

/**
 * Whether a delivery may connect to `address` (checked on the resolved address of every attempt, so a name that
 * later resolves to a private address is refused too). Loopback is allowed with local http receivers.
 */
export function isAllowedAddress(address: string, policy: WebhookUrlPolicy): boolean {
  const ip = unmapped(address);
  const family = isIP(ip);
  if (family === 0) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (policy.allowPrivateNetworks) return true;
  if (policy.allowLocalHttp && LOOPBACK.check(ip, type)) return true;
  return !PRIVATE.check(ip, type);
}

const refuse = (message: string) => new RpcError('invalid_input', message, { loc: ['body', 'url'], type: 'url_scheme' });

/** A receiver URL as registered: https (or local http where allowed), no credentials, no private literal address. */
export function checkWebhookUrl(raw: string, policy: WebhookUrlPolicy): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse(`expected an absolute https:// URL; got '${raw.slice(0, 200)}'`);
  }
  const local = LOCAL_HOSTS.has(url.hostname);
  if (url.protocol === 'http:') {
    if (!local)
      throw refuse(`expected an https:// URL; got ${url.protocol}// (plain http is accepted only for localhost, and only where the deployment allows it)`);
    if (!policy.allowLocalHttp)
      throw refuse(`expected an https:// URL; got http://${url.host} (this deployment does not allow local http receivers: QDC_WEBHOOK_ALLOW_LOCAL_HTTP)`);
  } else if (url.protocol !== 'https:') {
    throw refuse(`expected an https:// URL; got '${url.protocol}'`);
  }
  if (url.username || url.password) throw refuse('expected a URL without user:password (put a token in the path or query instead)');
  if (url.hash) throw refuse('expected a URL without a #fragment');
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) && !isAllowedAddress(literal, policy))
    throw refuse(`expected a public address; ${literal} is a private, loopback or link-local address (QDC_WEBHOOK_ALLOW_PRIVATE_NETWORKS)`);
  if (url.hostname === 'localhost' && !policy.allowLocalHttp && !policy.allowPrivateNetworks)
    throw refuse('expected a public host; localhost is allowed only where the deployment allows local receivers (QDC_WEBHOOK_ALLOW_LOCAL_HTTP)');
  return url.toString();
}
