import { randomUUID } from 'node:crypto';
import { ERRORS, type ErrorKey } from '@crm/contracts';
import { AppError } from '../../lib/app-error';
import type { CallRuntime } from './call-bus';

// Commands for a leg another instance holds (issue 12): a leg lives in one process's line, so a
// command from any instance goes over the pub/sub (memory or Redis, as the call events do) to its
// owner's channel, which runs it and replies on the sender's channel. No reply in time: the owner
// is gone (a restart ends its legs, call-control-events.ts).

export type ControlOp = 'answer' | 'bridge' | 'play' | 'stopPlay' | 'hangup';

type Command = { kind: 'cmd'; id: string; from: string; op: ControlOp; args: unknown[] };
type Reply = { kind: 'reply'; id: string; ok: boolean; value?: unknown; error?: { key?: ErrorKey; message: string } };

export const instanceChannel = (instanceId: string) => `call-control:${instanceId}`;

/** How long an instance waits for another's reply beyond the command's own duration. */
export const REPLY_WAIT_MS = 5_000;

/** Samples travel as base64 of their bytes (JSON on the pub/sub). */
export const encodeSamples = (samples: Int16Array) =>
  Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength).toString('base64');
export const decodeSamples = (text: string) => {
  const bytes = Buffer.from(text, 'base64');
  const out = new Int16Array(bytes.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = bytes.readInt16LE(i * 2);
  return out;
};

export class InstanceUnreachable extends AppError {
  constructor() {
    super('CALL_INSTANCE_UNREACHABLE');
  }
}

/** Runs `op` on the instance that holds the leg; resolves to its result, or rejects as it did there. */
export const sendCommand = (rt: CallRuntime, instanceId: string, op: ControlOp, args: unknown[], waitMs = REPLY_WAIT_MS) =>
  new Promise<unknown>((resolve, reject) => {
    const id = randomUUID();
    const timer = setTimeout(() => {
      rt.control.pending.delete(id);
      reject(new InstanceUnreachable());
    }, waitMs);
    timer.unref();
    rt.control.pending.set(id, { resolve, reject, timer });
    const command: Command = { kind: 'cmd', id, from: rt.instanceId, op, args };
    rt.bus.publish(instanceChannel(instanceId), command).catch((err) => {
      clearTimeout(timer);
      rt.control.pending.delete(id);
      reject(err);
    });
  });

const errorOf = (err: unknown): Reply['error'] =>
  err instanceof AppError ? { key: err.key, message: err.message } : { message: String((err as Error)?.message ?? err) };

/** This instance serves commands for its legs and takes replies to its own; resolves to the unsubscribe. */
export const serveCommands = (
  rt: CallRuntime,
  execute: (op: ControlOp, args: unknown[]) => Promise<unknown>,
  onError: (err: unknown) => void,
) =>
  rt.bus.subscribe(instanceChannel(rt.instanceId), (message) => {
    const m = message as Command | Reply;
    if (m.kind === 'reply') {
      const waiting = rt.control.pending.get(m.id);
      if (!waiting) return;
      clearTimeout(waiting.timer);
      rt.control.pending.delete(m.id);
      if (m.ok) waiting.resolve(m.value);
      else if (m.error?.key && m.error.key in ERRORS) waiting.reject(new AppError(m.error.key, m.error.message));
      else waiting.reject(new Error(m.error?.message ?? 'call-control command failed'));
      return;
    }
    if (m.kind !== 'cmd') return;
    const reply = (r: Omit<Reply, 'kind' | 'id'>) =>
      rt.bus.publish(instanceChannel(m.from), { kind: 'reply', id: m.id, ...r } satisfies Reply).catch(onError);
    execute(m.op, m.args).then(
      (value) => reply({ ok: true, value: value ?? null }),
      (err) => reply({ ok: false, error: errorOf(err) }),
    );
  });
