// Helpers of the call-control real-call scenarios: WAV reading and tone/speech measures, baresip's
// ctrl_tcp (the customer), its audio dumps, the bare agent page, and a control line's events.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { build } from 'esbuild';
import type { ControlEvent } from '../../apps/server/src/telephony/control';
import { loginAs } from '../fixtures/login';

export const RUN = process.env.SIP_TEST_RUN ?? '.tmp/sip-test';

/** the 16-bit mono samples of a WAV file's data chunk */
export const readWav = (b: Buffer): Int16Array => {
  let off = 12;
  while (off + 8 <= b.length) {
    const id = b.toString('ascii', off, off + 4);
    const size = b.readUInt32LE(off + 4);
    if (id === 'data') {
      const n = Math.min(size, b.length - off - 8) >> 1;
      const out = new Int16Array(n);
      for (let i = 0; i < n; i++) out[i] = b.readInt16LE(off + 8 + i * 2);
      return out;
    }
    off += 8 + size + (size & 1);
  }
  return new Int16Array(0);
};

/** Goertzel power of one frequency relative to the signal's power (0…1) */
export const toneShare = (s: Int16Array, freq: number, rate = 8000) => {
  const k = 2 * Math.cos((2 * Math.PI * freq) / rate);
  let s1 = 0;
  let s2 = 0;
  let energy = 0;
  for (const x of s) {
    const s0 = x + k * s1 - s2;
    s2 = s1;
    s1 = s0;
    energy += x * x;
  }
  const power = (s1 * s1 + s2 * s2 - k * s1 * s2) / s.length;
  return energy ? Math.min(1, (2 * power) / energy) : 0;
};

/**
 * seconds of 100 ms blocks in which one frequency holds at least `minShare` of the block's power.
 * A Goertzel over a whole call is phase-coherent: a stream that lost, repeated or re-timed frames on
 * its way (the browser's, under load) shifts the tone's phase, and the shifted stretches cancel each
 * other out. A group call's customer heard the agent's tone in 69 of 136 blocks while the whole-call
 * share was 0.07 (30 Nov 2026); failed CI runs had a whole-call share of 0. Block by block, the phase
 * does not matter.
 */
export const toneSeconds = (s: Int16Array, freq: number, minShare = 0.3, rate = 8000) => {
  const block = rate / 10;
  let blocks = 0;
  for (let o = 0; o + block <= s.length; o += block) if (toneShare(s.subarray(o, o + block), freq, rate) >= minShare) blocks++;
  return blocks / 10;
};

/** a 20 ms frame quieter than this (RMS) is silence */
const QUIET_RMS = 100;

/** 20 ms RMS envelope */
export const envelope = (s: Int16Array) => {
  const out: number[] = [];
  for (let o = 0; o + 160 <= s.length; o += 160) {
    let sum = 0;
    for (let i = o; i < o + 160; i++) sum += (s[i] ?? 0) ** 2;
    out.push(Math.sqrt(sum / 160));
  }
  return out;
};

/** best Pearson correlation of the prompt's envelope inside a longer signal's (a constant tone does not hide it) */
export const promptCorrelation = (signal: Int16Array, prompt: Int16Array) => {
  const a = envelope(signal);
  // the prompt's quiet head and tail are not what the customer hears: a BYE may overtake the
  // trailing silence on a loaded machine (a group call's abandoned customer got all 4.6 s of speech
  // but not the last 0.26 s of silence, and the whole prompt no longer fitted: 0.23 instead of 1)
  const all = envelope(prompt);
  const first = all.findIndex((x) => x > QUIET_RMS);
  const last = all.findLastIndex((x) => x > QUIET_RMS);
  const p = first < 0 ? all : all.slice(first, last + 1);
  const mean = (x: number[]) => x.reduce((s, v) => s + v, 0) / x.length;
  const mp = mean(p);
  let best = 0;
  for (let lag = 0; lag + p.length <= a.length; lag++) {
    const w = a.slice(lag, lag + p.length);
    const mw = mean(w);
    let num = 0;
    let da = 0;
    let db = 0;
    for (let i = 0; i < p.length; i++) {
      const x = (w[i] as number) - mw;
      const y = (p[i] as number) - mp;
      num += x * y;
      da += x * x;
      db += y * y;
    }
    if (da > 0 && db > 0) best = Math.max(best, num / Math.sqrt(da * db));
  }
  return Math.round(best * 100) / 100;
};

/** baresip's ctrl_tcp (netstring JSON): dial, hangup (a ringing call: 486), accept, sndcode (an RFC 4733 key press on the current account's call), uafind (make an account current) */
export const baresip = (command: 'dial' | 'hangup' | 'accept' | 'sndcode' | 'uafind', params = '') =>
  new Promise<void>((resolve, reject) => {
    const body = JSON.stringify({ command, params, token: 'cc' });
    const socket = net.connect(4444, '127.0.0.1', () => {
      socket.write(`${Buffer.byteLength(body)}:${body},`);
      setTimeout(() => {
        socket.end();
        resolve();
      }, 200);
    });
    socket.on('error', reject);
  });

/**
 * what baresip (the customer) heard since a time: its sndfile dumps of decoded audio, in order
 * (a re-INVITE restarts baresip's audio stream and so starts a new dump)
 */
export const customerHeard = (since: number): Int16Array => {
  const dir = path.join(RUN, 'baresip-dumps');
  const parts = fs
    .readdirSync(dir)
    .filter((f) => f.includes('dec') && f.endsWith('.wav'))
    .map((f) => ({ f, t: fs.statSync(path.join(dir, f)).mtimeMs }))
    .filter((x) => x.t >= since)
    .sort((x, y) => x.t - y.t)
    .map((x) => readWav(fs.readFileSync(path.join(dir, x.f))));
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
};

let server: Promise<string> | undefined;
/** serves the agent page from 127.0.0.1 (a local, secure origin that may open ws://127.0.0.1) */
const agentOrigin = () => {
  server ??= (async () => {
    const out = await build({
      entryPoints: [path.resolve('e2e/sip/agent-page.ts')],
      bundle: true,
      format: 'iife',
      target: 'chrome120',
      write: false,
    });
    const js = out.outputFiles[0]?.text ?? '';
    const html = '<!doctype html><meta charset="utf-8"><title>agent</title><script src="/agent.js"></script>';
    const srv = http.createServer((rq, rs) => {
      const isJs = rq.url === '/agent.js';
      rs.writeHead(200, { 'content-type': isJs ? 'text/javascript' : 'text/html' });
      rs.end(isJs ? js : html);
    });
    srv.unref();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
  })();
  return server;
};

/** a bare agent softphone (agent-page.ts) in a page, registered as `user` */
export const startAgent = async (page: Page, user: string, pass: string) => {
  page.on('pageerror', (e) => console.error(`[agent page] ${e.message}`));
  await page.goto(`${await agentOrigin()}/agent.html`);
  await page.evaluate((cfg) => window.__startAgent(cfg), {
    ws: 'ws://127.0.0.1:8080',
    user,
    pass,
    domain: '127.0.0.1',
    answerMs: 400,
  });
  await page.waitForFunction(() => window.__agent.registered || window.__agent.failed, null, { timeout: 15_000 });
  const failed = await page.evaluate(() => window.__agent.failed);
  if (failed) throw new Error(`agent ${user} did not register: ${failed}`);
};

export type AgentCall = { uuid: string; from: string; events: string[]; peaks: number[]; active: number };
export const agentCalls = (page: Page) => page.evaluate(() => window.__agent.calls as AgentCall[]);

/** a control line's events, and waiting for one */
export const eventLog = () => {
  const events: (ControlEvent & { t: number })[] = [];
  const push = (e: ControlEvent) => {
    events.push({ ...e, t: performance.now() });
  };
  const waitFor = async <K extends ControlEvent['kind']>(
    kind: K,
    legId?: string,
    ms = 15_000,
  ): Promise<Extract<ControlEvent, { kind: K }> & { t: number }> => {
    const start = Date.now();
    for (;;) {
      const e = events.find((x) => x.kind === kind && (!legId || x.legId === legId));
      if (e) return e as Extract<ControlEvent, { kind: K }> & { t: number };
      if (Date.now() - start > ms) throw new Error(`no ${kind} event for ${legId ?? 'any leg'} in ${ms} ms`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return { events, push, waitFor };
};

export const ms = (x: number | undefined) => (x === undefined ? NaN : Math.round(x * 10) / 10);

/** the web phone's call modal */
export const inCall = (page: Page) => page.locator('.ant-modal').filter({ has: page.getByTestId('call-status') });

/** Logs in and goes 在线: a real registration; t0 is when the agent started going online. */
export const goOnline = async (page: Page, username: string) => {
  await loginAs(page, username);
  const extension = page.getByTestId('extension-area');
  const t0 = Date.now();
  await expect(async () => {
    await page.getByRole('button', { name: '分机状态' }).click();
    await page.getByRole('menuitem', { name: '在线' }).click({ timeout: 2_000 });
    await expect(extension).toContainText('在线', { timeout: 3_000 });
  }).toPass({ timeout: 20_000 });
  return { extension, t0 };
};

/**
 * Before the app loads: every remote track of the page's WebRTC calls is measured as the bare
 * agent page does (peak frequency per 100 ms while there is sound), in window.__remotePeaks. For
 * the app's own web phone, whose audio the test cannot reach otherwise.
 */
export const measureRemoteAudio = (page: Page) =>
  page.addInitScript(() => {
    const w = window as unknown as { __remotePeaks: number[]; RTCPeerConnection: typeof RTCPeerConnection };
    w.__remotePeaks = [];
    const Base = w.RTCPeerConnection;
    w.RTCPeerConnection = class extends Base {
      constructor(config?: RTCConfiguration) {
        super(config);
        this.addEventListener('track', (ev) => {
          const stream = ev.streams[0] ?? new MediaStream([ev.track]);
          // Chromium feeds a remote WebRTC stream to WebAudio only while a media element plays it
          const audio = new Audio();
          audio.srcObject = stream;
          void audio.play().catch(() => {});
          const ctx = new AudioContext();
          const an = ctx.createAnalyser();
          an.fftSize = 4096;
          ctx.createMediaStreamSource(stream).connect(an);
          const td = new Float32Array(an.fftSize);
          const fd = new Float32Array(an.frequencyBinCount);
          const timer = setInterval(() => {
            if (ev.track.readyState === 'ended') return clearInterval(timer);
            an.getFloatTimeDomainData(td);
            an.getFloatFrequencyData(fd);
            let sum = 0;
            for (const v of td) sum += v * v;
            if (Math.sqrt(sum / td.length) < 0.01) return;
            let best = 1;
            for (let i = 1; i < fd.length; i++) if ((fd[i] ?? -999) > (fd[best] ?? -999)) best = i;
            w.__remotePeaks.push(Math.round((best * ctx.sampleRate) / an.fftSize));
          }, 100);
          void ctx.resume();
        });
      }
    };
  });

export const remotePeaks = (page: Page) => page.evaluate(() => (window as unknown as { __remotePeaks: number[] }).__remotePeaks);

/** baresip's dumps of what the customers heard (…-dec.wav), by name: one per call, named by its start second */
export const customerDumps = () =>
  fs
    .readdirSync(path.join(RUN, 'baresip-dumps'))
    .filter((f) => f.endsWith('-dec.wav'))
    .sort();

export const readDump = (name: string) => readWav(fs.readFileSync(path.join(RUN, 'baresip-dumps', name)));
