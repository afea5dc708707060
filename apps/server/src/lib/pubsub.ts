import { EventEmitter } from 'node:events';

/**
 * Publish/subscribe between the parts of the server that own sockets (DESIGN §1, §5):
 * events are published after the database commit and every instance delivers them to the
 * sockets it holds. In-process by default; a Redis implementation behind REDIS_URL plugs in
 * here without touching the callers.
 */
export type PubSub = {
  publish: (channel: string, message: unknown) => Promise<void>;
  /** resolves, once messages of the channel are delivered, to the unsubscribe function */
  subscribe: (channel: string, handler: (message: unknown) => void) => Promise<() => void>;
  close: () => Promise<void>;
};

/** Named in-process buses: several app instances in one process (tests of call control across instances). */
const shared = new Map<string, EventEmitter>();

/**
 * In-process pub/sub. With a name, every instance of the process that names it shares one bus
 * (REDIS_URL=memory://<name>); closing one removes only its own subscriptions.
 */
export const createMemoryPubSub = (name?: string): PubSub => {
  const emitter = (name && shared.get(name)) || new EventEmitter();
  emitter.setMaxListeners(0);
  if (name) shared.set(name, emitter);
  const own: [string, (message: unknown) => void][] = [];
  return {
    publish: async (channel, message) => {
      // a copy, as Redis would deliver: subscribers never share the publisher's object
      const copy: unknown = JSON.parse(JSON.stringify(message));
      emitter.emit(channel, copy);
    },
    subscribe: async (channel, handler) => {
      emitter.on(channel, handler);
      own.push([channel, handler]);
      return () => {
        emitter.off(channel, handler);
      };
    },
    close: async () => {
      for (const [channel, handler] of own.splice(0)) emitter.off(channel, handler);
    },
  };
};

/** Channel of one staff's call socket(s). */
export const staffChannel = (staffId: number) => `staff:${staffId}`;
/** Channel of one device (by imei). */
export const deviceChannel = (imei: string) => `device:${imei}`;
