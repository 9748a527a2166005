import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  APP_COMMAND,
  appEnvironment,
  BALANCER_ARGS,
  balancerEnvironment,
  CLUSTER_PORTS,
  HAPROXY_CONFIG,
  PLACEMENT_KEYS,
  READINESS_PATH,
  SECRET_KEYS,
} from './topology.ts';

// No container runtime runs on these machines, so compose.yaml is checked against what
// `npm run cluster` (which the fault suite runs) starts: the same commands, ports,
// environment and health checks.

interface Service {
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  ports?: string[];
  volumes?: string[];
  build?: string;
}

const compose = parse(readFileSync('compose.yaml', 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
};
const dockerfile = readFileSync('Dockerfile', 'utf8');
const haproxy = readFileSync(HAPROXY_CONFIG, 'utf8');
const sample = appEnvironment({
  host: '127.0.0.1',
  port: 1,
  appUrl: 'http://x',
  databaseUrl: 'postgres://x',
  redisUrl: 'redis://x',
  dataDir: '/x',
});

describe.each([
  ['app1', CLUSTER_PORTS.apps[0]],
  ['app2', CLUSTER_PORTS.apps[1]],
] as const)('compose service %s', (name, port) => {
  const service = compose.services[name] as Service;

  it('runs the image of this Dockerfile with the cluster command', () => {
    expect(service.build).toBe('.');
    expect(service.command).toEqual([...APP_COMMAND]);
  });

  it('has the cluster environment: same keys, same values but for placement and secrets', () => {
    const environment = service.environment ?? {};
    expect(Object.keys(environment).sort()).toEqual(
      [...Object.keys(sample), ...SECRET_KEYS].sort(),
    );
    for (const [key, value] of Object.entries(sample)) {
      if (key === 'PORT') expect(environment.PORT).toBe(String(port));
      else if (!PLACEMENT_KEYS.includes(key)) expect(environment[key], key).toBe(value);
    }
    // In a container the process listens on every interface, on the agreed port.
    expect(environment.HOST).toBe('0.0.0.0');
    expect(environment.DATABASE_URL).toMatch(/^postgres:\/\/.+@postgres:5432\//);
    expect(environment.REDIS_URL).toBe('redis://redis:6379');
    // Secrets come from the deployment, never from the file.
    for (const key of SECRET_KEYS) expect(environment[key]).toMatch(/^\$\{\w+:\?/);
  });

  it('checks readiness on its own port', () => {
    expect(service.healthcheck?.test.join(' ')).toContain(
      `http://127.0.0.1:${port}${READINESS_PATH}`,
    );
  });
});

describe('the balancer', () => {
  const service = compose.services.haproxy as Service;

  it('runs the same configuration file with the same arguments', () => {
    expect(service.volumes).toContain(`./${HAPROXY_CONFIG}:/usr/local/etc/haproxy/haproxy.cfg:ro`);
    expect(service.command).toEqual([
      'haproxy',
      ...BALANCER_ARGS.map((arg) =>
        arg === HAPROXY_CONFIG ? '/usr/local/etc/haproxy/haproxy.cfg' : arg,
      ),
    ]);
  });

  it('listens on the cluster port and sends to the two apps on theirs', () => {
    expect(service.environment).toEqual(
      balancerEnvironment(`:${CLUSTER_PORTS.balancer}`, [
        `app1:${CLUSTER_PORTS.apps[0]}`,
        `app2:${CLUSTER_PORTS.apps[1]}`,
      ]),
    );
    expect(service.ports).toEqual([`${CLUSTER_PORTS.balancer}:${CLUSTER_PORTS.balancer}`]);
  });

  it('checks each app on the readiness path and reads every address from the environment', () => {
    expect(haproxy).toContain(`uri ${READINESS_PATH}`);
    for (const name of Object.keys(balancerEnvironment('', ['', '']))) {
      expect(haproxy).toContain(`"\${${name}}"`);
    }
  });
});

describe('the Dockerfile', () => {
  it('builds in one stage and runs the cluster command in another, as a non-root user', () => {
    expect(dockerfile.match(/^FROM /gm)).toHaveLength(2);
    expect(dockerfile).toContain('npm prune --omit=dev');
    expect(dockerfile).toMatch(/^USER node$/m);
    const command = dockerfile.match(/^CMD (.+)$/m)?.[1];
    expect(JSON.parse(command ?? '[]')).toEqual([...APP_COMMAND]);
  });

  it('checks readiness', () => {
    expect(dockerfile).toMatch(new RegExp(`HEALTHCHECK[\\s\\S]+${READINESS_PATH}`));
  });
});

describe('the VPN node agent unit', () => {
  const unit = readFileSync('deploy/vpn-node.service', 'utf8');
  const agentConfig = readFileSync('vpn-node/config.ts', 'utf8');

  it('starts the agent as npm run vpn-node does, restarting it, with a kept state folder', () => {
    const script = JSON.parse(readFileSync('package.json', 'utf8')).scripts['vpn-node'];
    expect(unit).toContain(`ExecStart=/usr/bin/${script}`);
    expect(unit).toMatch(/^Restart=always$/m);
    expect(unit).toMatch(/^StateDirectory=vpn-node$/m);
    expect(unit).toContain('Environment=VPN_NODE_STATE_DIR=/var/lib/vpn-node');
  });

  it('documents every setting the agent requires', () => {
    for (const name of ['VPN_NODE_API_URL', 'VPN_NODE_TOKEN', 'VPN_NODE_INTERFACE']) {
      expect(agentConfig).toContain(name);
      expect(unit).toContain(`${name}=`);
    }
  });
});
