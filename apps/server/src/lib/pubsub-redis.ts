import { createClient } from 'redis';
import type { PubSub } from './pubsub';

/**
 * Pub/sub across server instances through Redis (REDIS_URL, DESIGN §1): one connection
 * publishes, one subscribes; a Redis channel is subscribed while this instance has a
 * handler for it. Messages travel as JSON.
 */
export const createRedisPubSub = async (url: string, onError: (err: unknown) => void): Promise<PubSub> => {
  const publisher = createClient({ url });
  publisher.on('error', onError);
  await publisher.connect();
  const subscriber = publisher.duplicate();
  subscriber.on('error', onError);
  await subscriber.connect();
  const handlers = new Map<string, Set<(message: unknown) => void>>();
  /** the SUBSCRIBE of each channel, resolved once Redis confirmed it */
  const ready = new Map<string, Promise<void>>();

  const deliver = (text: string, channel: string) => {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    for (const h of handlers.get(channel) ?? []) h(message);
  };

  return {
    publish: async (channel, message) => {
      await publisher.publish(channel, JSON.stringify(message));
    },
    subscribe: async (channel, handler) => {
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        ready.set(channel, subscriber.subscribe(channel, deliver).catch(onError));
      }
      set.add(handler);
      await ready.get(channel);
      return () => {
        const current = handlers.get(channel);
        if (!current) return;
        current.delete(handler);
        if (current.size === 0) {
          handlers.delete(channel);
          ready.delete(channel);
          void subscriber.unsubscribe(channel).catch(onError);
        }
      };
    },
    close: async () => {
      handlers.clear();
      await Promise.allSettled([subscriber.quit(), publisher.quit()]);
    },
  };
};
