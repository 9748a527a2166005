// The fleet's fixed vocabulary and timings, free of zod: the database's enum, the contracts,
// the node agent and the screens take them from here.

/**
 * A server's state: `new` until its node first enrolls; `online` while the node reports;
 * `offline` once it has been silent for OFFLINE_AFTER_MS; `maintenance` set by staff (its
 * peers stay, no new device is placed on it); `draining` while its devices move away before
 * it is removed.
 */
export const SERVER_STATUSES = ['new', 'online', 'offline', 'maintenance', 'draining'] as const;
export type ServerStatus = (typeof SERVER_STATUSES)[number];

/** A node sends its usage every 10 s (VPN_REPORT_INTERVAL_MS); one silent for 60 s is offline. */
export const REPORT_INTERVAL_MS = 10_000;
export const OFFLINE_AFTER_MS = 60_000;
/** A peers poll with nothing new is answered after this long, and the node asks again. */
export const POLL_WAIT_MS = 25_000;
/**
 * Reports a node may send in one call, oldest first; and peers in one report (at ~160 bytes
 * a peer, a full report stays well inside the 1 MB body limit; a node with more active
 * peers splits its measurement over consecutive reports).
 */
export const MAX_REPORTS_PER_CALL = 30;
export const MAX_PEERS_PER_REPORT = 3_000;

/** Tags staff commonly give servers; any other short tag may be used too. */
export const SUGGESTED_TAGS = ['streaming', 'p2p', 'double-vpn', 'tor', 'dedicated-ip'] as const;

/**
 * Devices one person may have when nothing says otherwise: a plan's `device_limit`, a family
 * member's own seat, bonus days and staff grants (§3 plan field; demo plans 10).
 */
export const DEFAULT_DEVICE_LIMIT = 10;

/** What a device's client keeps the tunnel alive with, behind NAT (seconds). */
export const PERSISTENT_KEEPALIVE_S = 25;

/** Where a new or moved device goes: a country, or the least loaded server near the customer. */
export const FASTEST = 'fastest';

/** GB as staff type it (§6 traffic limit) in bytes: decimal, as ISPs and WireGuard apps count. */
export const BYTES_PER_GB = 1_000_000_000;
