/**
 * Speech benchmark (issue 16, 23): prompt synthesis latency with espeak-ng (npm WASM by default), cold (a text never
 * said) and cached (the WAV from DATA_DIR/speech-cache), concurrent requests of one new text, and
 * the voice-activity detector's speed on a minute of 8 kHz line audio (speech, noise, echo).
 *
 *   npx tsx bench/speech.ts [prompts=40] [--binary]
 *
 * Writes bench/results/speech.md (SPEECH_BENCH_OUT to write elsewhere). Never part of npm test.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createSynthesizer, espeakProvider } from '../apps/server/src/modules/speech/synthesizer';
import { VoiceActivityDetector } from '../apps/server/src/modules/speech/vad';
import { findSpeech } from '../apps/server/src/telephony/tts';
import { summarise } from './lib';

const PROMPTS = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 40);
const OUT = process.env.SPEECH_BENCH_OUT ?? 'bench/results/speech.md';

const PHRASES = [
  '您好，这里是云呼科技，请问您是{name}吗',
  '我们最近推出了一款新的理财产品，年化收益3.5%，请问您有兴趣了解一下吗',
  '好的，稍后会有专属顾问给您回电，请保持电话畅通',
  '不好意思打扰您了，祝您生活愉快，再见',
  '请问您现在方便接听电话吗，大概占用您两分钟时间',
  '您可以拨打客服热线4008123456咨询详情',
  '抱歉我没有听清，您可以再说一遍吗',
  '这款产品起投金额是1000元，随时可以赎回',
];

const fmt = (x: number) => x.toFixed(1);

const main = async () => {
  // the default engine (npm espeak-ng, WASM); `--binary` for Debian's espeak-ng
  const engine = process.argv.includes('--binary') ? 'binary' : 'wasm';
  const speech = await findSpeech({ engine, espeakBin: 'espeak-ng' });
  if (!speech.isAvailable) throw new Error(`speech synthesis unavailable: ${speech.missing}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'speech-bench-'));
  let runs = 0;
  const counted = {
    ...speech,
    synthesize: (t: string) => {
      runs++;
      return speech.synthesize(t);
    },
  };
  const synth = createSynthesizer(espeakProvider(counted), dir);
  // every text differs (a cold run each): the number read differs per prompt
  const texts = Array.from(
    { length: PROMPTS },
    (_v, i) => `第${i + 1}位客户，${PHRASES[i % PHRASES.length].replace('{name}', '张先生')}`,
  );

  const cold: number[] = [];
  const audioMs: number[] = [];
  for (const t of texts) {
    const t0 = performance.now();
    const r = await synth.synthesize(t);
    cold.push(performance.now() - t0);
    audioMs.push(r.durationMs);
  }
  const cached: number[] = [];
  for (let round = 0; round < 3; round++) {
    for (const t of texts) {
      const t0 = performance.now();
      const r = await synth.synthesize(t);
      cached.push(performance.now() - t0);
      if (!r.isCached) throw new Error('expected a cache hit');
    }
  }
  const runsBefore = runs;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: 20 }, () => synth.synthesize('这是二十个通话同时请求的同一句新提示语')));
  const concurrentMs = performance.now() - t0;
  const concurrentRuns = runs - runsBefore;

  // a minute of line audio: the bot's prompt (sent, and its echo 15 dB down), then the customer
  const bot = await speech.synthesize(PHRASES[1]);
  const customer = await speech.synthesize(PHRASES[4]);
  const n = 60 * 8000;
  const rx = new Int16Array(n);
  const tx = new Int16Array(n);
  let seed = 1;
  for (let i = 0; i < n; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    rx[i] = Math.round((seed / 2147483648 - 0.5) * 300);
  }
  let placed = 0;
  for (let at = 0; at + 8000 * 12 <= n; at += 8000 * 12) {
    placed++;
    for (let i = 0; i < bot.length && at + i < n; i++) tx[at + i] = bot[i];
    for (let i = 0; i < bot.length && at + 480 + i < n; i++) rx[at + 480 + i] += Math.round(bot[i] * 0.18);
    const c = at + bot.length + 4000;
    for (let i = 0; i < customer.length && c + i < n; i++) rx[c + i] += customer[i] >> 1;
  }
  const vadRuns: number[] = [];
  let turns = 0;
  for (let r = 0; r < 5; r++) {
    const vad = new VoiceActivityDetector();
    const s0 = performance.now();
    turns = 0;
    for (let f = 0; f + 160 <= n; f += 160) {
      for (const e of vad.push(rx.subarray(f, f + 160), tx.subarray(f, f + 160))) if (e.type === 'end') turns++;
    }
    turns += vad.flush().length;
    vadRuns.push(performance.now() - s0);
  }
  fs.rmSync(dir, { recursive: true, force: true });

  const c = summarise(cold);
  const h = summarise(cached);
  const v = summarise(vadRuns);
  const avgAudio = audioMs.reduce((a, b) => a + b, 0) / audioMs.length;
  const perFrameUs = (v.p50 * 1000) / (n / 160);
  const report = `# Speech benchmark (bench/speech.ts)

Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' / ')} (shared with other sessions). ${speech.engine}, voice ${speech.voice}, resampled to 8 kHz mono in JS.

## Prompt synthesis (${PROMPTS} prompts, ${fmt(avgAudio / 1000)} s of audio on average)

| measure | n | p50 ms | p95 ms | max ms |
| --- | --- | --- | --- | --- |
| cold (espeak-ng + resampling + WAV written to the cache) | ${c.n} | ${fmt(c.p50)} | ${fmt(c.p95)} | ${fmt(c.max)} |
| cached (file found on disk) | ${h.n} | ${fmt(h.p50)} | ${fmt(h.p95)} | ${fmt(h.max)} |

20 concurrent requests for one new text: ${fmt(concurrentMs)} ms in all, espeak-ng ran ${concurrentRuns} time(s).

## Voice activity (60 s of 8 kHz line audio: prompts with their echo 15 dB down, customer turns, noise)

| measure | value |
| --- | --- |
| time for 60 s of audio (p50 of 5 runs) | ${fmt(v.p50)} ms |
| per 20 ms frame | ${perFrameUs.toFixed(2)} µs |
| real-time factor | ${((v.p50 / 60_000) * 100).toFixed(3)} % of one core per call |
| customer turns found | ${turns} (${placed} placed) |
`;
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, report);
  console.log(report);
};

await main();
