// The key pair tests of wireguard-keys.test.ts, run again in Chromium: its WebCrypto X25519
// is the one customers' browsers use (the node project runs them against Node's).
import './wireguard-keys.test.ts';
