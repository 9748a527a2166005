import { Agent } from './agent.ts';
import { NodeApiClient } from './api-client.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createLogger } from './log.ts';
import { ReportQueue } from './report-queue.ts';
import { StateDir } from './state-dir.ts';
import { WgCli } from './wg-cli.ts';

// The node agent's process (`npm run vpn-node`): reads the configuration, wires the parts,
// and stops cleanly on SIGTERM/SIGINT. Exit 0 when stopped or when staff removed the server,
// 1 when it cannot run as configured (a bad setting, another machine's key), so a unit with
// `Restart=on-failure` does not bring a retired node back.

/** Sent at enrollment; staff see it on the server's page. */
const AGENT_VERSION = '1.0.0';

async function main(): Promise<number> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return 1;
  }
  const log = createLogger(config.logLevel);
  const state = await StateDir.open(config.stateDir);
  const queue = await ReportQueue.open(state);
  const agent = new Agent({
    api: new NodeApiClient({ baseUrl: config.apiUrl, token: config.token }),
    wireGuard: new WgCli(config.wgPath, config.interfaceName),
    state,
    queue,
    log,
    agentVersion: AGENT_VERSION,
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      log.info('stopping', { signal });
      agent.stop();
    });
  }
  log.info('starting', {
    api: config.apiUrl,
    interface: config.interfaceName,
    state_dir: config.stateDir,
    reports_waiting: queue.size,
  });
  const outcome = await agent.run();
  return outcome === 'key-mismatch' ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `vpn-node failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  },
);
