import { nodeEndpoints as e } from '#shared/contracts/vpn-node.ts';
import { type Route, route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';
import { nodeOfRequest } from './node-auth.ts';
import { NodeService } from './node-service.ts';
import { vpnContext } from './vpn-context.ts';

const MINUTE = 60_000;

/**
 * Per node, against a token used from many places or an agent in a loop: a node enrolls at
 * start, polls when its peers change (or every 25 s), and reports every 10 s (in batches
 * when catching up after being cut off).
 */
const NODE_LIMITS = {
  enroll: { limit: 30, windowMs: 60 * MINUTE },
  peers: { limit: 240, windowMs: MINUTE },
  report: { limit: 60, windowMs: MINUTE },
} as const;

/** The node API: VPN nodes with their bearer token (node-auth.ts), nothing else. */
export function nodeRoutes(app: App): Route[] {
  const nodes = new NodeService(vpnContext(app));
  const limit = (name: keyof typeof NODE_LIMITS, serverId: number) =>
    app.rateLimiter.consume([
      { name: `node-${name}`, key: String(serverId), ...NODE_LIMITS[name] },
    ]);
  return [
    route(e.enroll, async ({ request, body }) => {
      const node = nodeOfRequest(request);
      await limit('enroll', node.serverId);
      return nodes.enroll(node, body);
    }),
    route(e.peers, async ({ request, reply, query }) => {
      const node = nodeOfRequest(request);
      await limit('peers', node.serverId);
      const closed = new Promise<void>((resolve) => reply.raw.once('close', () => resolve()));
      return nodes.peers(node, query.version, closed);
    }),
    route(e.report, async ({ request, body }) => {
      const node = nodeOfRequest(request);
      await limit('report', node.serverId);
      return nodes.report(node, body);
    }),
  ];
}
