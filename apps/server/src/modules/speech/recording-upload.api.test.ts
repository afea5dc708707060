import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files } from '../../db/schema';
import { createTestApp, type TestApp, uploadAs } from '../../test/harness';
import { AudioConvertError, checkRecording, convertAudio } from './audio-convert';
import { createPromptAudio, tenantRecordings } from './prompt-audio';
import { createSynthesizer, type SynthesisProvider } from './synthesizer';
import { encodeWav, readWav } from './wav';

// AI bot node recordings (issue 16, 22, 23): WAV decoded in JS, MP3 by mpg123 in WASM (neither
// needs a Debian package, neither can open a file), M4A by ffmpeg (installed by .ci/run) confined
// to the one uploaded file in the format its extension claims; an upload (scene 'aibot') is
// converted at once, so a file the bot could not play is refused at upload with a clear message
// (105006), not during a call. ffmpeg here only makes the test files.

let t: TestApp;
let admin: string;

/** `seconds` of a 440 Hz tone in the container ffmpeg writes for `format` (mp3, ipod = .m4a) */
const tone = (format: 'mp3' | 'ipod', seconds = 1) => {
  // an M4A's muxer seeks back to write its index: through a file, not a pipe
  const file = path.join(os.tmpdir(), `crm-tone-${randomBytes(6).toString('hex')}.${format === 'ipod' ? 'm4a' : 'mp3'}`);
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`],
    ...['-ar', '16000', '-ac', '1', ...(format === 'ipod' ? ['-c:a', 'aac', '-movflags', '+faststart'] : [])],
    ...['-f', format, file],
  ]);
  try {
    return fs.readFileSync(file);
  } finally {
    fs.rmSync(file, { force: true });
  }
};

/** multipart/form-data with the scene field and one file */
const upload = (name: string, data: Buffer, scene = 'aibot') => uploadAs(t, admin, name, data, { scene });

const fakeTts: SynthesisProvider = {
  name: 'fake',
  voice: 'v',
  isAvailable: true,
  render: async () => new Int16Array(800),
};

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin');
});
afterAll(async () => {
  await t.close();
});

describe('MP3 and M4A node recordings', () => {
  it.each([
    ['开场.mp3', 'mp3'],
    ['开场.m4a', 'ipod'],
  ] as const)('%s is accepted at upload and the bot plays it as 8 kHz mono', async (name, format) => {
    const res = await upload(name, tone(format));
    expect(res.json().code, res.body).toBe(0);
    const id = res.json().data.id as number;
    const [{ tenantId }] = await t.database.db.select({ tenantId: files.tenantId }).from(files).where(eq(files.id, id));
    const cacheDir = `${t.app.config.dataDir}/speech-cache-test-${format}`;
    const audio = createPromptAudio({ synthesizer: createSynthesizer(fakeTts, cacheDir), cacheDir });
    const played = await audio.resolve(
      { text: '您好', audioFileId: id },
      tenantRecordings(t.app.db, t.app.config.dataDir, tenantId),
    );
    expect(played.recordingProblem).toBeUndefined();
    expect(played.source).toBe('recording');
    const wav = await readWav(played.file);
    expect(wav?.sampleRate).toBe(8000);
    // one second, give or take the codec's padding
    expect(played.durationMs).toBeGreaterThanOrEqual(950);
    expect(played.durationMs).toBeLessThanOrEqual(1150);
    expect(wav?.samples.reduce((m, s) => Math.max(m, Math.abs(s)), 0)).toBeGreaterThan(3000);
  });

  it('a recording that cannot be decoded is refused at upload with why (400, 105006)', async () => {
    // an M4A cut after its header: the type check passes, the decoder finds no audio
    const broken = tone('ipod').subarray(0, 300);
    const res = await upload('坏的.m4a', broken);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 105006, msg: '录音无法转换为电话音频：录音文件已损坏或格式无法识别' });
    // outside the AI bot scene the same file is just a file
    expect((await upload('坏的.m4a', broken, 'other')).json().code).toBe(0);
  });

  it('a prompt recording of up to 120 seconds is taken, a longer one refused', async () => {
    expect((await upload('长.mp3', tone('mp3', 119))).json().code).toBe(0);
    const res = await upload('太长.mp3', tone('mp3', 121));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 105006, msg: '录音无法转换为电话音频：录音过长，最长120秒' });
  }, 30_000);

  it('a file of another kind is refused for the bot', async () => {
    const res = await upload('说明.txt', Buffer.from('开场白的文字'));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 105006, msg: '录音只支持 wav、mp3、m4a 格式' });
  });

  it('without ffmpeg an MP3 and a WAV of any common encoding still work; an M4A is refused naming ffmpeg', async () => {
    const noFfmpeg = { ffmpegBin: '/nonexistent/ffmpeg' };
    expect(await checkRecording(noFfmpeg, tone('mp3'), 'mp3')).toBeCloseTo(1, 1);
    const err = await checkRecording(noFfmpeg, tone('ipod'), 'm4a').catch((e) => e);
    expect(err).toBeInstanceOf(AudioConvertError);
    expect(err.message).toBe('服务器未安装 ffmpeg，暂不能使用 m4a 录音，请上传 wav 或 mp3 格式');
    const wav = encodeWav(new Int16Array(8000).map((_, i) => Math.round(6000 * Math.sin(i / 3))));
    expect(await checkRecording(noFfmpeg, wav, 'wav')).toBe(1);
    // 44.1 kHz stereo 24-bit and 8 kHz µ-law, as editors and phone systems write them
    for (const codec of [
      ['-ar', '44100', '-ac', '2', '-c:a', 'pcm_s24le'],
      ['-ar', '8000', '-ac', '1', '-c:a', 'pcm_mulaw'],
    ]) {
      const file = path.join(os.tmpdir(), `crm-wav-${randomBytes(6).toString('hex')}.wav`);
      execFileSync('ffmpeg', ['-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', ...codec, file]);
      const bytes = fs.readFileSync(file);
      fs.rmSync(file);
      expect(await checkRecording(noFfmpeg, bytes, 'wav')).toBeCloseTo(1, 1);
    }
  });
});

describe('a recording never reads another file (issue 22)', () => {
  let dir: string;
  /** the file a hostile upload names: 3 s of a 1 kHz tone the tenant must never hear */
  let secret: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-secret-'));
    secret = path.join(dir, 'secret.mp3');
    execFileSync('ffmpeg', ['-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=frequency=1000:duration=3', '-ar', '16000', secret]);
    fs.copyFileSync(secret, path.join(dir, 'secret.m4a'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const hls = () => `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n${secret}\n#EXT-X-ENDLIST\n`;
  /** the probe's 149-byte trick: an ID3v2.4 header with the footer flag (a prober skips 10 more bytes), an MPEG frame header, then an HLS playlist */
  const id3Trick = () => {
    const id3 = Buffer.from([0x49, 0x44, 0x33, 0x04, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00]);
    const frame = Buffer.from([0xff, 0xfb, 0x90, 0x64, 0, 0, 0, 0, 0, 0]);
    return Buffer.concat([id3, frame, Buffer.from(hls())]);
  };
  const concat = () => `ffconcat version 1.0\nfile '${secret}'\nfile 'secret.mp3'\n`;

  /** the energy at 1 kHz against the whole signal (Goertzel): near 1 for the secret tone, ~0 otherwise */
  const toneShare = (x: Int16Array) => {
    if (x.length === 0) return 0;
    const w = (2 * Math.PI * 1000) / 8000;
    let s1 = 0;
    let s2 = 0;
    let total = 0;
    for (const v of x) {
      const s0 = v + 2 * Math.cos(w) * s1 - s2;
      s2 = s1;
      s1 = s0;
      total += v * v;
    }
    const power = s1 * s1 + s2 * s2 - 2 * Math.cos(w) * s1 * s2;
    return total === 0 ? 0 : (2 * power) / (x.length * total);
  };

  const cases: [string, () => Buffer][] = [
    ['the ID3-footer HLS trick as .mp3', id3Trick],
    ['an HLS playlist renamed .mp3', () => Buffer.from(hls())],
    ['an HLS playlist renamed .m4a', () => Buffer.from(hls())],
    ['a concat playlist renamed .mp3', () => Buffer.from(concat())],
    ['a concat playlist renamed .m4a', () => Buffer.from(concat())],
    ['the ID3-footer HLS trick as .m4a', id3Trick],
  ];

  it.each(cases)('%s decodes to nothing of the file it names', async (name, bytes) => {
    const type = name.endsWith('.m4a') ? 'm4a' : 'mp3';
    const data = bytes();
    const decoded = await convertAudio({}, data, type).catch((e: unknown) => e);
    if (decoded instanceof Int16Array) expect(toneShare(decoded)).toBeLessThan(0.05);
    else expect(decoded).toBeInstanceOf(AudioConvertError);
    // the way the bot hears it: uploaded as a plain file, then named as a node's recording
    const res = await upload(`攻击.${type}`, data, 'other');
    if (res.json().code !== 0) return; // the content check refused it already
    const id = res.json().data.id as number;
    const [{ tenantId }] = await t.database.db.select({ tenantId: files.tenantId }).from(files).where(eq(files.id, id));
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-cache-'));
    const audio = createPromptAudio({ synthesizer: createSynthesizer(fakeTts, cacheDir), cacheDir });
    const played = await audio.resolve(
      { text: '您好', audioFileId: id },
      tenantRecordings(t.app.db, t.app.config.dataDir, tenantId),
    );
    const wav = await readWav(played.file);
    expect(toneShare(wav?.samples ?? new Int16Array())).toBeLessThan(0.05);
    fs.rmSync(cacheDir, { recursive: true, force: true });
  });

  it('the 149-byte trick is refused at upload for the bot (400, 105006)', async () => {
    const res = await upload('开场.mp3', id3Trick());
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(105006);
  });
});
