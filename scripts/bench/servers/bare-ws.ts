import fastify from 'fastify';
import { type WebSocket, WebSocketServer } from 'ws';
import { failStartup, serve } from './serve.ts';

// The realtime baseline: just enough of the Pusher protocol on bare `ws` for the fan-out
// scenario (greeting, subscribe, ping, an unsigned events endpoint), checking nothing, so the
// product's figures read as the cost of a real server over ws itself on this machine.

const subscribers = new Map<string, Set<WebSocket>>();
const wss = new WebSocketServer({ noServer: true, clientTracking: false });
let nextId = 1;

wss.on('connection', (ws) => {
  const id = nextId++;
  const joined = new Set<string>();
  ws.send(
    JSON.stringify({
      event: 'pusher:connection_established',
      data: JSON.stringify({ socket_id: `${id}.${id}`, activity_timeout: 120 }),
    }),
  );
  ws.on('message', (raw) => {
    const { event, data } = JSON.parse(raw.toString()) as {
      event: string;
      data: { channel: string };
    };
    if (event === 'pusher:ping') {
      ws.send(JSON.stringify({ event: 'pusher:pong', data: '{}' }));
    } else if (event === 'pusher:subscribe') {
      const set = subscribers.get(data.channel) ?? new Set();
      subscribers.set(data.channel, set.add(ws));
      joined.add(data.channel);
      ws.send(
        JSON.stringify({
          event: 'pusher_internal:subscription_succeeded',
          channel: data.channel,
          data: '{}',
        }),
      );
    }
  });
  ws.on('close', () => {
    for (const channel of joined) subscribers.get(channel)?.delete(ws);
  });
});

const app = fastify();
app.post<{ Body: { name: string; data: string; channels: string[] } }>(
  '/apps/:appId/events',
  async (request) => {
    const { name, data, channels } = request.body;
    for (const channel of channels) {
      const payload = JSON.stringify({ event: name, channel, data });
      for (const ws of subscribers.get(channel) ?? []) ws.send(payload);
    }
    return {};
  },
);
app.server.on('upgrade', (request, socket, head) => {
  wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
});
await serve(app).catch(failStartup);
