import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staff } from '../../db/schema';
import { storageOf } from '../../lib/storage';
import { createTestApp, type TestApp } from '../../test/harness';
import { insertFile } from '../uploads/uploads.repo';
import { createPromptAudio, PromptAudioError, type RecordingSource, tenantRecordings } from './prompt-audio';
import { createSynthesizer, type SynthesisProvider } from './synthesizer';
import { encodeWav, readWav } from './wav';

// A node's prompt as audio: its uploaded recording (a file of the uploads module, read from the
// file storage for the call's company only, converted to 8 kHz once) or else its text.

let t: TestApp;
let dataDir: string;
let tenantA: number;
let tenantB: number;
const ttsTexts: string[] = [];

const fakeTts: SynthesisProvider = {
  name: 'fake',
  voice: 'v',
  isAvailable: true,
  render: async (text) => {
    ttsTexts.push(text);
    return new Int16Array(800 * Array.from(text).length).fill(500);
  },
};

/** stores bytes as an upload of the tenant and returns its id */
const storeUpload = async (tenantId: number, storedName: string, bytes: Buffer) => {
  await storageOf(dataDir).put(storedName, bytes);
  const staffId = (await t.database.db.select().from(staff)).find((s) => s.tenantId === tenantId)?.id ?? 0;
  return insertFile(t.database.db, {
    tenantId,
    staffId,
    originalName: storedName,
    storedName,
    mime: 'audio/wav',
    size: bytes.length,
    scene: 'aibot',
  });
};

/** one second of a 440 Hz tone, 16 kHz stereo: a typical recording from a PC */
const stereo16k = () => {
  const n = 16000;
  const buf = encodeWav(new Int16Array(n * 2), 16000);
  // rewrite the header as stereo and fill both channels
  buf.writeUInt16LE(2, 22);
  buf.writeUInt32LE(16000 * 4, 28);
  buf.writeUInt16LE(4, 32);
  for (let i = 0; i < n; i++) {
    const v = Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 16000));
    buf.writeInt16LE(v, 44 + i * 4);
    buf.writeInt16LE(v, 44 + i * 4 + 2);
  }
  return buf;
};

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-speech-'));
  t = await createTestApp({ dataDir });
  const rows = await t.database.db.select().from(staff);
  tenantA = rows.find((s) => s.username === 'admin')?.tenantId ?? 0;
  tenantB = rows.find((s) => s.username === 'other_admin')?.tenantId ?? 0;
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const make = () => {
  const cacheDir = path.join(dataDir, 'speech-cache', String(Math.random()).slice(2));
  return createPromptAudio({ synthesizer: createSynthesizer(fakeTts, cacheDir), cacheDir });
};

describe('prompt audio', () => {
  it('plays the uploaded recording converted to 8 kHz mono, converted once', async () => {
    const id = await storeUpload(tenantA, '2026-11-aaaaaaaa-0000-4000-8000-000000000001.wav', stereo16k());
    const audio = make();
    const first = await audio.resolve({ text: '您好', audioFileId: id }, tenantRecordings(t.database.db, dataDir, tenantA));
    expect(first).toMatchObject({ source: 'recording', durationMs: 1000, isCached: false });
    expect(first.recordingProblem).toBeUndefined();
    const wav = await readWav(first.file);
    expect(wav?.sampleRate).toBe(8000);
    expect(wav?.samples.length).toBe(8000);
    expect(wav?.samples.reduce((m, s) => Math.max(m, Math.abs(s)), 0)).toBeGreaterThan(5000);
    let reads = 0;
    const counting: RecordingSource = async (fileId) => {
      reads++;
      return tenantRecordings(t.database.db, dataDir, tenantA)(fileId);
    };
    const second = await audio.resolve({ text: '您好', audioFileId: id }, counting);
    expect(second).toMatchObject({ source: 'recording', file: first.file, isCached: true });
    expect(ttsTexts).not.toContain('您好');
    expect(reads).toBe(1);
  });

  it('does not play another company’s recording: it says the text and tells why', async () => {
    const id = await storeUpload(tenantA, '2026-11-aaaaaaaa-0000-4000-8000-000000000002.wav', stereo16k());
    const r = await make().resolve({ text: '请问您方便吗', audioFileId: id }, tenantRecordings(t.database.db, dataDir, tenantB));
    expect(r).toMatchObject({ source: 'tts', recordingProblem: '录音文件不存在或已删除' });
    expect(ttsTexts).toContain('请问您方便吗');
  });

  it('falls back to the text when sox cannot read the recording, and refuses when there is no text', async () => {
    const id = await storeUpload(
      tenantA,
      '2026-11-aaaaaaaa-0000-4000-8000-000000000003.wav',
      Buffer.from('RIFF-not-really-audio'),
    );
    const source = tenantRecordings(t.database.db, dataDir, tenantA);
    const r = await make().resolve({ text: '稍后再联系您', audioFileId: id }, source);
    expect(r.source).toBe('tts');
    expect(r.recordingProblem).toMatch(/^录音无法转换为电话音频/);
    await expect(make().resolve({ text: '  ', audioFileId: id }, source)).rejects.toBeInstanceOf(PromptAudioError);
    await expect(make().resolve({ text: '', audioFileId: 999_999 }, source)).rejects.toThrow('录音文件不存在或已删除');
  });

  it('synthesizes the text when the node has no recording', async () => {
    const r = await make().resolve({ text: '感谢您的接听', audioFileId: null }, async () => {
      throw new Error('not asked');
    });
    expect(r).toMatchObject({ source: 'tts', durationMs: 600, isCached: false });
  });
});
