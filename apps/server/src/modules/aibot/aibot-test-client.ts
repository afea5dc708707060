import type { CustomerTurn, FlowDetail, FlowGraph, FlowTestResult } from '@crm/contracts';
import { expect } from 'vitest';
import type { TestApp } from '../../test/harness';

type Answer<T = unknown> = { code: number; msg: string; data: T };
const P = '/api/frontend/aibot';
let seq = 0;

/**
 * The aibot API as the tests call it: `app()` is the file's test app (built in beforeAll), `tokens`
 * by username; admin unless another user is named.
 */
export const aibotClient = (app: () => TestApp, tokens: Record<string, string>) => {
  const post = async <T = unknown>(path: string, body: unknown, user = 'admin') => {
    const res = await app().post(`${P}/${path}`, body, tokens[user]);
    return { status: res.statusCode, ...(res.json() as Answer<T>) };
  };
  const get = async <T = unknown>(path: string, user = 'admin') => {
    const res = await app().get(`${P}/${path}`, tokens[user]);
    return { status: res.statusCode, ...(res.json() as Answer<T>) };
  };
  /** A new flow of the user's company; optionally its draft replaced by `graph`. */
  const newFlow = async (graph?: FlowGraph, user = 'admin') => {
    seq += 1;
    const name = `测试话术${seq}`;
    const created = await post<{ id: number }>('flow/store', { name, remark: '' }, user);
    expect(created.code, created.msg).toBe(0);
    const id = created.data.id;
    if (graph) expect((await post('flow/update', { id, name, graph }, user)).code).toBe(0);
    return { id, name };
  };
  const detail = async (id: number, user = 'admin') => (await get<FlowDetail>(`flow/detail?id=${id}`, user)).data;
  const consoleRun = async (id: number, turns: CustomerTurn[], extra: Record<string, unknown> = {}) => {
    const res = await post<FlowTestResult>('flow/test', { id, turns, ...extra });
    expect(res.code, res.msg).toBe(0);
    return res.data;
  };
  return { post, get, newFlow, detail, consoleRun };
};
