import { z } from 'zod';
import { MAX_PEERS_PER_REPORT, MAX_REPORTS_PER_CALL } from '../vpn/fleet-rules.ts';
import { isWireGuardKey } from '../vpn/wireguard-key.ts';
import { endpoint } from './endpoint.ts';

// The node API (DESIGN "VPN provisioning"): what a VPN node's agent (vpn-node/) calls with
// `Authorization: Bearer <token>`. It enrolls with the public key it made (the private key
// never leaves the node), keeps its interface's peers equal to `peers` (a long poll on a
// version), and sends numbered usage reports that it keeps until they are acknowledged.

const invalid = { error: 'input_errors.field_is_invalid' };
const isoDate = z.iso.datetime({ offset: true });

export const NODE_MESSAGES = {
  /** The server has a key already: a new machine needs a rotated token. */
  keyMismatch: 'node.key_mismatch',
  /** Reports must come oldest first, each number once. */
  outOfOrder: 'node.reports_out_of_order',
  /** Staff removed the server: the node may only learn that its peers are gone. */
  retired: 'node.retired',
} as const;

export const wireGuardKey = z
  .string(invalid)
  .trim()
  .refine(isWireGuardKey, { error: 'vpn.errors.public_key_invalid' });

const bytes = z.number(invalid).int(invalid).min(0, invalid).max(Number.MAX_SAFE_INTEGER, invalid);

export const enrollRequest = z.object({
  public_key: wireGuardKey,
  agent_version: z.string(invalid).trim().min(1, invalid).max(32, invalid),
});
export type EnrollRequest = z.infer<typeof enrollRequest>;

export const enrollResponse = z.object({
  server_id: z.number().int(),
  name: z.string(),
  /** The UDP port WireGuard listens on (the endpoint's, unless staff set another). */
  listen_port: z.number().int(),
  /** The interface's own addresses with the pools' prefixes, for whoever sets it up. */
  interface_addresses: z.array(z.string()),
  report_interval_ms: z.number().int().min(1_000),
  poll_wait_ms: z.number().int().min(100),
});
export type EnrollResponse = z.infer<typeof enrollResponse>;

export const peersQuery = z.object({
  /** The version the node has applied; absent or older: the answer is immediate. */
  version: z.coerce.number(invalid).int(invalid).min(0, invalid).optional(),
});

export const nodePeer = z.object({
  public_key: z.string(),
  /** The device's own tunnel addresses, `/32` and `/128`. */
  allowed_ips: z.array(z.string()),
});
export type NodePeer = z.infer<typeof nodePeer>;

export const peersResponse = z.object({
  version: z.number().int(),
  /** False when the wait ended with nothing new: keep the peers, ask again. */
  changed: z.boolean(),
  /** The whole set when changed; empty otherwise. */
  peers: z.array(nodePeer),
  /** The server was removed by staff: the set is empty for good and the agent may stop. */
  retired: z.boolean(),
});
export type PeersResponse = z.infer<typeof peersResponse>;

/**
 * One peer's traffic since the previous report, as the node counted it: a counter that went
 * down (the interface restarted) starts a new run rather than counting negative.
 */
export const peerUsage = z.object({
  public_key: z.string(invalid).max(64, invalid),
  /** Bytes the server received from the device, and sent to it. */
  rx: bytes,
  tx: bytes,
  latest_handshake_at: isoDate.nullable(),
});
export type PeerUsage = z.infer<typeof peerUsage>;

export const usageReport = z.object({
  /** Numbered from 1 within a stream, one higher each report. */
  seq: z.number(invalid).int(invalid).min(1, invalid).max(Number.MAX_SAFE_INTEGER, invalid),
  taken_at: isoDate,
  /**
   * The host's CPU load, 0–100 %, kept to hundredths: the column is a `real`, which refuses a
   * value too small to hold (a subnormal double) instead of rounding it.
   */
  cpu: z
    .number(invalid)
    .min(0, invalid)
    .max(100, invalid)
    .transform((value) => Math.round(value * 100) / 100),
  /** Peers with a handshake in the last three minutes. */
  active_peers: z.number(invalid).int(invalid).min(0, invalid).max(1_000_000, invalid),
  peers: z.array(peerUsage).max(MAX_PEERS_PER_REPORT, invalid),
});
export type UsageReport = z.infer<typeof usageReport>;

export const reportRequest = z.object({
  /**
   * The node's report stream: made with its state folder, so a node that lost its folder
   * starts numbering anew without its reports being taken for ones already counted.
   */
  stream: z.uuid(invalid),
  reports: z.array(usageReport).min(1, invalid).max(MAX_REPORTS_PER_CALL, invalid),
});
export type ReportRequest = z.infer<typeof reportRequest>;

export const reportResponse = z.object({
  /** Every report up to this number is counted: the node may forget them. */
  acked_seq: z.number().int(),
});
export type ReportResponse = z.infer<typeof reportResponse>;

const node = { base: 'node', access: 'node', tag: 'node' } as const;

export const nodeEndpoints = {
  enroll: endpoint({
    ...node,
    method: 'POST',
    path: '/enroll',
    summary: "Enroll the node with its WireGuard public key; answers its server's settings",
    body: enrollRequest,
    response: enrollResponse,
  }),
  peers: endpoint({
    ...node,
    method: 'GET',
    path: '/peers',
    summary: 'The peers the interface must have; waits for a change past `version`',
    query: peersQuery,
    response: peersResponse,
  }),
  report: endpoint({
    ...node,
    method: 'POST',
    path: '/report',
    summary: 'Numbered usage reports, oldest first; each counted once',
    body: reportRequest,
    response: reportResponse,
  }),
} as const;

/** What a node's bearer token starts with, so a leaked one is recognised for what it is. */
export const NODE_TOKEN_PREFIX = 'vpnnode_';
