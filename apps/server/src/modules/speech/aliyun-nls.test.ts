import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { aliyunNlsRecognizer } from './aliyun-nls';
import type { RecognizerEvent } from './recognizer';

// The Alibaba Cloud adapter against FakeNlsGateway: a WebSocket server on 127.0.0.1 speaking the
// SpeechTranscriber protocol (header/payload JSON; StartTranscription → TranscriptionStarted,
// TranscriptionResultChanged, SentenceEnd, StopTranscription → TranscriptionCompleted, TaskFailed).

type Behaviour = 'normal' | 'bad-token' | 'no-start' | 'fail-mid-stream' | 'no-completion';

class FakeNlsGateway {
  readonly wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  token: string | null = null;
  commands: { header: Record<string, string>; payload?: Record<string, unknown> }[] = [];
  audioFrames: number[] = [];
  constructor(behaviour: Behaviour) {
    this.wss.on('connection', (ws, req) => {
      this.token = new URL(req.url ?? '/', 'ws://x').searchParams.get('token');
      const event = (name: string, payload?: object, status = 20000000, statusMessage = 'GATEWAY|SUCCESS|Success.') =>
        ws.send(
          JSON.stringify({
            header: {
              message_id: 'a'.repeat(32),
              task_id: this.commands[0]?.header.task_id,
              namespace: 'SpeechTranscriber',
              name,
              status,
              status_message: statusMessage,
            },
            ...(payload ? { payload } : {}),
          }),
        );
      let bytes = 0;
      ws.on('message', (data, isBinary) => {
        if (isBinary) {
          this.audioFrames.push((data as Buffer).length);
          bytes += (data as Buffer).length;
          if (behaviour === 'fail-mid-stream' && bytes === 3200) {
            event('TaskFailed', {}, 40000004, 'GATEWAY|IDLE_TIMEOUT|Websocket session is idle for too long time');
            return ws.close(1000);
          }
          if (bytes === 3200) event('SentenceBegin', { index: 1, time: 120 });
          if (bytes === 3200 || bytes === 6400)
            event('TranscriptionResultChanged', { index: 1, time: bytes / 16, result: bytes === 3200 ? '我不' : '我不需要' });
          return;
        }
        const cmd = JSON.parse(String(data));
        this.commands.push(cmd);
        if (cmd.header.name === 'StartTranscription') {
          if (behaviour === 'bad-token') return event('TaskFailed', {}, 40000001, 'Gateway:ACCESS_DENIED:The token is invalid!');
          if (behaviour !== 'no-start') event('TranscriptionStarted', { session_id: 'b'.repeat(32) });
        }
        if (cmd.header.name === 'StopTranscription') {
          event('SentenceEnd', { index: 1, time: 900, begin_time: 120, result: '我不需要，谢谢。', confidence: 0.93 });
          if (behaviour !== 'no-completion') event('TranscriptionCompleted');
        }
      });
    });
  }
  get url() {
    return `ws://127.0.0.1:${(this.wss.address() as AddressInfo).port}/ws/v1`;
  }
  close() {
    for (const c of this.wss.clients) c.terminate();
    this.wss.close();
  }
}

let gw: FakeNlsGateway | undefined;
afterEach(() => gw?.close());

const start = async (behaviour: Behaviour, timeouts = { connectMs: 1000, finishMs: 300 }) => {
  gw = new FakeNlsGateway(behaviour);
  await new Promise((r) => gw?.wss.once('listening', r));
  const events: RecognizerEvent[] = [];
  const rec = aliyunNlsRecognizer({ url: gw.url, appkey: 'appkey-123', token: async () => 'tok-abc', timeouts });
  return { rec, events, gw, open: () => rec.open({ sampleRate: 8000, onEvent: (e) => events.push(e) }) };
};
const frames = (n: number) => Array.from({ length: n }, () => new Int16Array(800).fill(500)); // 100 ms each
const waitFor = async (cond: () => boolean, ms = 2000) => {
  const until = Date.now() + ms;
  while (!cond() && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
};

describe('Alibaba Cloud NLS recognizer adapter', () => {
  it('starts with the token and appkey, streams PCM, gives partials and the sentence, completes', async () => {
    const { open, events, gw } = await start('normal');
    const session = await open();
    for (const f of frames(4)) session.push(f);
    await waitFor(() => events.length >= 2);
    const text = await session.finish();
    expect(gw.token).toBe('tok-abc');
    const [startCmd, stopCmd] = gw.commands;
    expect(startCmd.header).toMatchObject({ namespace: 'SpeechTranscriber', name: 'StartTranscription', appkey: 'appkey-123' });
    expect(startCmd.header.task_id).toMatch(/^[0-9a-f]{32}$/);
    expect(startCmd.header.message_id).toMatch(/^[0-9a-f]{32}$/);
    expect(startCmd.payload).toMatchObject({
      format: 'pcm',
      sample_rate: 8000,
      enable_intermediate_result: true,
      max_sentence_silence: 800,
    });
    expect(stopCmd.header).toMatchObject({ name: 'StopTranscription', task_id: startCmd.header.task_id });
    expect(stopCmd.header.message_id).not.toBe(startCmd.header.message_id);
    expect(gw.audioFrames).toEqual([1600, 1600, 1600, 1600]);
    expect(events).toEqual([
      { type: 'partial', text: '我不' },
      { type: 'partial', text: '我不需要' },
      { type: 'final', text: '我不需要，谢谢。' },
    ]);
    expect(text).toBe('我不需要，谢谢。');
  });

  it('refuses the session when the gateway rejects the token', async () => {
    const { open } = await start('bad-token');
    await expect(open()).rejects.toMatchObject({ reason: 'service', message: expect.stringContaining('40000001') });
  });

  it('times out when TranscriptionStarted never comes', async () => {
    const { open } = await start('no-start', { connectMs: 150, finishMs: 300 });
    await expect(open()).rejects.toMatchObject({ reason: 'timeout' });
  });

  it('reports TaskFailed mid-stream as a service error', async () => {
    const { open, events } = await start('fail-mid-stream');
    const session = await open();
    for (const f of frames(3)) session.push(f);
    await waitFor(() => events.some((e) => e.type === 'error'));
    expect(events).toEqual([
      { type: 'error', error: expect.objectContaining({ reason: 'service', message: expect.stringContaining('IDLE_TIMEOUT') }) },
    ]);
  });

  it('keeps the sentence but times out without TranscriptionCompleted', async () => {
    const { open, events } = await start('no-completion', { connectMs: 1000, finishMs: 120 });
    const session = await open();
    await expect(session.finish()).rejects.toMatchObject({ reason: 'timeout' });
    expect(events.filter((e) => e.type === 'final')).toEqual([{ type: 'final', text: '我不需要，谢谢。' }]);
  });

  it('refuses without an appkey, and when the token cannot be had', async () => {
    const noKey = aliyunNlsRecognizer({ url: 'wss://nls.example/ws/v1', appkey: '', token: () => 't' });
    await expect(noKey.open({ sampleRate: 8000, onEvent: () => {} })).rejects.toMatchObject({ reason: 'connect' });
    const noToken = aliyunNlsRecognizer({
      url: 'wss://nls.example/ws/v1',
      appkey: 'k',
      token: () => Promise.reject(new Error('CreateToken 403')),
    });
    await expect(noToken.open({ sampleRate: 8000, onEvent: () => {} })).rejects.toMatchObject({
      reason: 'connect',
      message: expect.stringContaining('403'),
    });
  });
});
