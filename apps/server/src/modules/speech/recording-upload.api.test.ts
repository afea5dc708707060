import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files } from '../../db/schema';
import { createTestApp, type TestApp, uploadAs } from '../../test/harness';
import { AudioConvertError, checkRecording } from './audio-convert';
import { createPromptAudio, tenantRecordings } from './prompt-audio';
import { createSynthesizer, type SynthesisProvider } from './synthesizer';
import { encodeWav, readWav } from './wav';

// AI bot node recordings in MP3/M4A (issue 16): Debian's sox has no handler for them, ffmpeg
// (installed by .ci/run) decodes them; an upload (scene 'aibot') is converted at once, so a file
// the bot could not play is refused at upload with a clear message (105006), not during a call.

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
    const audio = createPromptAudio({ synthesizer: createSynthesizer(fakeTts, cacheDir), cacheDir, soxBin: 'sox' });
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

  it('without ffmpeg an MP3 is refused with a message naming it; a WAV still goes through sox', async () => {
    const err = await checkRecording({ soxBin: 'sox', ffmpegBin: '/nonexistent/ffmpeg' }, tone('mp3'), 'mp3').catch((e) => e);
    expect(err).toBeInstanceOf(AudioConvertError);
    expect(err.message).toBe('服务器未安装 ffmpeg，暂不能使用 mp3/m4a 录音，请上传 wav 格式');
    const wav = encodeWav(new Int16Array(8000).map((_, i) => Math.round(6000 * Math.sin(i / 3))));
    expect(await checkRecording({ soxBin: 'sox', ffmpegBin: '/nonexistent/ffmpeg' }, wav, 'wav')).toBe(1);
  });
});
