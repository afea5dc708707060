import type { SipInfo } from '@crm/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { createExtensionController, type ExtensionDeps } from './extensionController';
import { useCall, useExtension } from './phoneStore';
import { ConnectionLostError } from './softphoneTypes';

const flush = () => new Promise((r) => setTimeout(r, 0));

const setup = (registerResults: (Error | null)[]) => {
  let now = 0;
  const due: { at: number; fn: () => void; id: number }[] = [];
  let seq = 0;
  const events: string[] = [];
  const deps: ExtensionDeps = {
    api: {
      sipDefault: async () => ({ cmSipid: 1, cmDeid: 0, user: '8001', phoneState: 1, callStatus: 0 }) as SipInfo,
      savePhoneState: async (s) => events.push(`phoneState ${s}`),
    },
    softphone: {
      register: async () => {
        events.push('register');
        const r = registerResults.shift() ?? null;
        if (r) throw r;
      },
      unregister: async () => {
        events.push('unregister');
      },
    },
    ui: { message: { info: () => 0, warning: (c) => events.push(c), error: (c) => events.push(c) }, modal: null },
    merchantType: () => 1,
    timers: {
      set: (fn, ms) => {
        seq += 1;
        due.push({ at: now + ms, fn, id: seq });
        return seq;
      },
      clear: (id) => {
        const i = due.findIndex((d) => d.id === id);
        if (i >= 0) due.splice(i, 1);
      },
    },
    checkMicrophone: async () => null,
    onLoaded: (sip) => events.push(`loaded ${sip?.user}`),
  };
  return {
    x: createExtensionController(deps),
    events,
    advance: (ms: number) => {
      now += ms;
      for (const d of [...due])
        if (d.at <= now) {
          due.splice(due.indexOf(d), 1);
          d.fn();
        }
    },
  };
};

beforeEach(() => {
  useCall.getState().reset();
  useExtension.getState().reset();
});

describe('extension controller (SPEC §4)', () => {
  it('reads the extension and registers one left online', async () => {
    const t = setup([]);
    await t.x.loadExtension();
    expect(t.events).toEqual(['loaded 8001', 'register']);
    expect(useExtension.getState().registerStatus).toBe(1);
  });

  it('re-initialises 5 s after a lost connection, not before', async () => {
    const t = setup([]);
    await t.x.loadExtension();
    t.x.onConnectionLost(false);
    expect(useExtension.getState().registerStatus).toBe(4);
    expect(t.events.at(-1)).toBe('与呼叫服务器的连接中断，5 秒后自动重新注册');
    t.advance(4_999);
    expect(t.events.filter((e) => e === 'register')).toHaveLength(1);
    t.advance(1);
    await flush();
    expect(t.events.filter((e) => e === 'register')).toHaveLength(2);
    expect(useExtension.getState().registerStatus).toBe(1);
  });

  it('retries a registration that failed on the connection', async () => {
    const t = setup([new ConnectionLostError('lost')]);
    await t.x.loadExtension();
    expect(useExtension.getState().registerStatus).toBe(4);
    t.advance(5_000);
    await flush();
    expect(useExtension.getState().registerStatus).toBe(1);
  });

  it('going offline saves the state and unregisters; no re-initialisation follows', async () => {
    const t = setup([]);
    await t.x.loadExtension();
    await t.x.changePhoneState(0);
    expect(t.events.slice(-2)).toEqual(['phoneState 0', 'unregister']);
    expect(useExtension.getState()).toMatchObject({ registerStatus: 0, phoneState: 0 });
    t.x.onConnectionLost(false);
    t.advance(5_000);
    await flush();
    expect(t.events.filter((e) => e === 'register')).toHaveLength(1);
  });
});
