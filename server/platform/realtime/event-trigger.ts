import { AppError } from '../../http/app-error.ts';
import type { ChannelHub } from './channel-hub.ts';
import { frame, isChannelName, isEventName, LIMITS, SOCKET_ID } from './protocol.ts';

/** One event for some channels, as the HTTP events API receives it. */
export interface TriggerEvent {
  channels: string[];
  name: string;
  /** The event's data as text (JSON as the `pusher` library sends it). */
  data: string;
  /** The socket that caused it, which does not hear it back. */
  socketId?: string | undefined;
}

/** Why Pusher would refuse this event (400, or 413 for its size), or undefined. */
export function triggerProblem(event: TriggerEvent): AppError | undefined {
  if (!isEventName(event.name)) return new AppError('bad_request', { info: 'Invalid event name' });
  if (event.channels.length === 0 || event.channels.length > LIMITS.channelsPerEvent) {
    return new AppError('bad_request', {
      info: `Between 1 and ${LIMITS.channelsPerEvent} channels per event`,
    });
  }
  const invalid = event.channels.find((channel): boolean => !isChannelName(channel));
  if (invalid !== undefined) {
    return new AppError('bad_request', { info: `Invalid channel name: ${invalid.slice(0, 50)}` });
  }
  if (event.socketId !== undefined && !SOCKET_ID.test(event.socketId)) {
    return new AppError('bad_request', { info: 'Invalid socket_id' });
  }
  if (Buffer.byteLength(event.data) > LIMITS.eventDataBytes) {
    return new AppError('payload_too_large', {
      info: `Event data is limited to ${LIMITS.eventDataBytes} bytes`,
    });
  }
  return undefined;
}

/** Hands a checked event to every subscriber of its channels, in every process. */
export function deliverEvent(hub: ChannelHub, event: TriggerEvent): void {
  for (const channel of event.channels) {
    hub.broadcast(channel, frame(event.name, event.data, channel), event.socketId);
  }
}
