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

export const createMemoryPubSub = (): PubSub => {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish: async (channel, message) => {
      // a copy, as Redis would deliver: subscribers never share the publisher's object
      const copy: unknown = JSON.parse(JSON.stringify(message));
      emitter.emit(channel, copy);
    },
    subscribe: async (channel, handler) => {
      emitter.on(channel, handler);
      return () => {
        emitter.off(channel, handler);
      };
    },
    close: async () => {
      emitter.removeAllListeners();
    },
  };
};

/** Channel of one staff's call socket(s). */
export const staffChannel = (staffId: number) => `staff:${staffId}`;
/** Channel of one device (by imei). */
export const deviceChannel = (imei: string) => `device:${imei}`;
