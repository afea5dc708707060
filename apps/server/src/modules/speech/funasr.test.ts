import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { funasrRecognizer } from './funasr';
import type { RecognizerEvent } from './recognizer';

// The FunASR adapter against FakeFunasrServer: a WebSocket server on 127.0.0.1 speaking the
// runtime's protocol (first a JSON config, binary PCM, {is_speaking:false}; 2pass-online pieces,
// a 2pass-offline sentence, is_final at the end), with switches for the failures a real server shows.

type Behaviour = 'normal' | 'silent-at-end' | 'drop-mid-stream' | 'garbage' | 'close-at-end';

class FakeFunasrServer {
  readonly wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  config: Record<string, unknown> | undefined;
  audioBytes = 0;
  constructor(
    behaviour: Behaviour,
    private readonly sentence = ['您好', '我想', '了解一下'],
  ) {
    this.wss.on('connection', (ws) => {
      let piece = 0;
      ws.on('message', (data, isBinary) => {
        if (isBinary) {
          this.audioBytes += (data as Buffer).length;
          // one online piece per 200 ms of 8 kHz audio
          if (this.audioBytes >= (piece + 1) * 3200 && piece < this.sentence.length) {
            if (behaviour === 'drop-mid-stream' && piece === 1) return ws.terminate();
            if (behaviour === 'garbage' && piece === 1) return ws.send('not json');
            ws.send(
              JSON.stringify({
                mode: '2pass-online',
                wav_name: this.config?.wav_name,
                text: this.sentence[piece],
                is_final: false,
              }),
            );
            piece++;
          }
          return;
        }
        const msg = JSON.parse(String(data));
        if (msg.mode) this.config = msg;
        else if (msg.is_speaking === false) {
          if (behaviour === 'silent-at-end') return;
          if (behaviour === 'close-at-end') {
            ws.send(JSON.stringify({ mode: '2pass-offline', text: '您好，我想了解一下。', is_final: false }));
            return ws.close(1000);
          }
          ws.send(
            JSON.stringify({
              mode: '2pass-offline',
              wav_name: this.config?.wav_name,
              text: '您好，我想了解一下。',
              is_final: true,
              timestamp: '[[100,200]]',
            }),
          );
        }
      });
    });
  }
  get url() {
    return `ws://127.0.0.1:${(this.wss.address() as AddressInfo).port}`;
  }
  close() {
    for (const c of this.wss.clients) c.terminate();
    this.wss.close();
  }
}

const frame = () => new Int16Array(160).fill(1000);
let server: FakeFunasrServer | undefined;
afterEach(() => server?.close());

const openWith = async (behaviour: Behaviour, timeouts = { connectMs: 2000, finishMs: 500 }) => {
  server = new FakeFunasrServer(behaviour);
  await new Promise((r) => server?.wss.once('listening', r));
  const events: RecognizerEvent[] = [];
  const rec = funasrRecognizer({ url: server.url, timeouts });
  const session = await rec.open({ sampleRate: 8000, name: 'call-7-turn-2', hotwords: ['保险'], onEvent: (e) => events.push(e) });
  return { session, events, server };
};

const pushFrames = (session: { push: (s: Int16Array) => void }, n: number) => {
  for (let i = 0; i < n; i++) session.push(frame());
};
const waitFor = async (cond: () => boolean, ms = 2000) => {
  const until = Date.now() + ms;
  while (!cond() && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
};

describe('FunASR recognizer adapter', () => {
  it('sends the protocol config, streams PCM, gives growing partials and the corrected final', async () => {
    const { session, events, server } = await openWith('normal');
    pushFrames(session, 30); // 600 ms of 8 kHz
    await waitFor(() => events.length >= 3);
    const text = await session.finish();
    expect(server.config).toMatchObject({
      mode: '2pass',
      wav_name: 'call-7-turn-2',
      wav_format: 'pcm',
      audio_fs: 8000,
      is_speaking: true,
      chunk_size: [5, 10, 5],
      itn: true,
    });
    expect(JSON.parse(String(server.config?.hotwords))).toEqual({ 保险: 20 });
    expect(server.audioBytes).toBe(30 * 320);
    expect(events).toEqual([
      { type: 'partial', text: '您好' },
      { type: 'partial', text: '您好我想' },
      { type: 'partial', text: '您好我想了解一下' },
      { type: 'final', text: '您好，我想了解一下。' },
    ]);
    expect(text).toBe('您好，我想了解一下。');
  });

  it('ends the session when the server closes after the last sentence without is_final', async () => {
    const { session } = await openWith('close-at-end');
    pushFrames(session, 5);
    await expect(session.finish()).resolves.toBe('您好，我想了解一下。');
  });

  it('times out when no last result comes, and reports it once', async () => {
    const { session, events } = await openWith('silent-at-end', { connectMs: 2000, finishMs: 150 });
    pushFrames(session, 5);
    const started = Date.now();
    await expect(session.finish()).rejects.toMatchObject({ reason: 'timeout' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(events.filter((e) => e.type === 'error')).toHaveLength(1);
  });

  it('reports a dropped connection mid-stream as an error event', async () => {
    const { session, events } = await openWith('drop-mid-stream');
    pushFrames(session, 30);
    await waitFor(() => events.some((e) => e.type === 'error'));
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { reason: 'closed' } });
    await expect(session.finish()).rejects.toMatchObject({ reason: 'closed' });
  });

  it('fails on a message that is not a FunASR result', async () => {
    const { session, events } = await openWith('garbage');
    pushFrames(session, 30);
    await waitFor(() => events.some((e) => e.type === 'error'));
    expect(events.find((e) => e.type === 'error')).toMatchObject({ error: { reason: 'protocol' } });
  });

  it('refuses to connect to a port nobody listens on, and a non-ws address', async () => {
    const dead = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise((r) => dead.once('listening', r));
    const port = (dead.address() as AddressInfo).port;
    await new Promise((r) => dead.close(r));
    const rec = funasrRecognizer({ url: `ws://127.0.0.1:${port}` });
    await expect(rec.open({ sampleRate: 8000, onEvent: () => {} })).rejects.toMatchObject({ reason: 'connect' });
    await expect(funasrRecognizer({ url: 'http://x' }).open({ sampleRate: 8000, onEvent: () => {} })).rejects.toMatchObject({
      reason: 'connect',
    });
  });

  it('close() abandons the session: no more events, pushes ignored', async () => {
    const { session, events, server } = await openWith('normal');
    session.close();
    pushFrames(session, 30);
    await new Promise((r) => setTimeout(r, 100));
    expect(events).toEqual([]);
    expect(server.audioBytes).toBe(0);
  });
});
