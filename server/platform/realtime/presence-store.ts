import { distinctMembers, type Member } from './protocol.ts';

export interface PresenceJoin {
  /** The channel's users after the join, one entry per user. */
  members: Member[];
  /** The user had no other connection on the channel: the others hear member_added. */
  added: boolean;
}

/**
 * Who is on each presence channel, per connection: a user with two sockets counts once and
 * leaves when the last one goes. Each join and leave is atomic with the read that decides
 * whether the user came or went, so two processes never both announce one user.
 */
export interface PresenceStore {
  join(channel: string, socketId: string, member: Member): Promise<PresenceJoin>;
  /** Resolves true when that was the user's last connection: the others hear member_removed. */
  leave(channel: string, socketId: string, userId: string): Promise<boolean>;
  members(channel: string): Promise<Member[]>;
  close(): Promise<void>;
}

/** Membership in this process only: the single-node default. */
export class MemoryPresenceStore implements PresenceStore {
  private readonly channels = new Map<string, Map<string, Member>>();

  async join(channel: string, socketId: string, member: Member): Promise<PresenceJoin> {
    let connections = this.channels.get(channel);
    if (!connections) {
      connections = new Map();
      this.channels.set(channel, connections);
    }
    const added = ![...connections.values()].some((other) => other.user_id === member.user_id);
    connections.set(socketId, member);
    return { members: distinctMembers(connections.values()), added };
  }

  async leave(channel: string, socketId: string, userId: string): Promise<boolean> {
    const connections = this.channels.get(channel);
    if (!connections?.delete(socketId)) return false;
    if (connections.size === 0) this.channels.delete(channel);
    return ![...connections.values()].some((other) => other.user_id === userId);
  }

  async members(channel: string): Promise<Member[]> {
    return distinctMembers(this.channels.get(channel)?.values() ?? []);
  }

  async close(): Promise<void> {
    this.channels.clear();
  }
}
