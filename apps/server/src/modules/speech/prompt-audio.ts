import path from 'node:path';
import { extensionOf } from '@crm/contracts';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { findTenantFileBytes } from '../uploads/uploads.service';
import { type AudioBins, AudioConvertError, checkRecording, convertAudio, convertProblemText } from './audio-convert';
import type { Synthesizer } from './synthesizer';
import { durationMsOf, readWav, writeWav } from './wav';

// What the bot plays for a prompt: the node's uploaded recording (converted once to 8 kHz mono
// WAV and cached by its stored name, which never changes) or else its text, synthesized. WAV and MP3
// are decoded in JS/WASM, M4A by a confined ffmpeg (audio-convert.ts; an upload is checked then). A recording that still cannot be
// read (a file from before that check, ffmpeg removed) falls back to the text when there is one,
// and says why.

export type PromptAudio = {
  /** 8 kHz mono 16-bit PCM WAV */
  file: string;
  durationMs: number;
  source: 'recording' | 'tts';
  isCached: boolean;
  /** set when the node has a recording that could not be used */
  recordingProblem?: string;
};

/** An uploaded file's bytes and stored name (the uploads module's `files` row), or undefined. */
export type RecordingSource = (fileId: number) => Promise<{ bytes: Buffer; storedName: string } | undefined>;

export class PromptAudioError extends Error {}

/** Node recordings (the upload scene 'aibot'): the formats the bot can play. */
export const RECORDING_EXTENSIONS = ['wav', 'mp3', 'm4a'];

/**
 * An AI bot recording at upload (scene 'aibot'): converted once for the line, so a file the bot
 * could not play is refused now with why (UPLOAD_AUDIO, 400), never failing a call later.
 */
export const checkUploadedRecording = async (bins: AudioBins, name: string, bytes: Buffer) => {
  const ext = extensionOf(name);
  if (!RECORDING_EXTENSIONS.includes(ext)) throw new AppError('UPLOAD_AUDIO', '录音只支持 wav、mp3、m4a 格式');
  try {
    await checkRecording(bins, bytes, ext);
  } catch (err) {
    if (err instanceof AudioConvertError) throw new AppError('UPLOAD_AUDIO', `录音无法转换为电话音频：${err.message}`);
    throw err;
  }
};

/** A tenant's uploaded files as recordings (storage driver of DATA_DIR, local or S3). */
export const tenantRecordings =
  (db: Db, dataDir: string, tenantId: number): RecordingSource =>
  async (fileId) => {
    const file = await findTenantFileBytes(db, dataDir, tenantId, fileId);
    return file && { bytes: file.buf, storedName: file.row.storedName };
  };

export type PromptAudioOptions = { synthesizer: Synthesizer; cacheDir: string; ffmpegBin?: string };

export const createPromptAudio = (o: PromptAudioOptions) => {
  const converting = new Map<string, Promise<{ file: string; durationMs: number; isCached: boolean }>>();

  const convertRecording = async (rec: { bytes: Buffer; storedName: string }) => {
    const file = path.join(o.cacheDir, 'recordings', `${rec.storedName.replace(/\.[^.]+$/, '')}.wav`);
    const cached = await readWav(file).catch(() => undefined);
    if (cached) return { file, durationMs: durationMsOf(cached.samples.length), isCached: true };
    const pending = converting.get(file);
    if (pending) return pending;
    const run = (async () => {
      const samples = await convertAudio(o, rec.bytes, extensionOf(rec.storedName) || 'wav');
      await writeWav(file, samples);
      return { file, durationMs: durationMsOf(samples.length), isCached: false };
    })().finally(() => converting.delete(file));
    converting.set(file, run);
    return run;
  };

  /**
   * The audio of one prompt: `audioFileId` (an upload) wins over `text`; rejects with
   * PromptAudioError when there is neither usable audio nor text, or SynthesisError / SpeechTextError.
   */
  const resolve = async (
    prompt: { text: string; audioFileId: number | null },
    recordings: RecordingSource,
  ): Promise<PromptAudio> => {
    let problem: string | undefined;
    if (prompt.audioFileId !== null) {
      const rec = await recordings(prompt.audioFileId);
      if (!rec) {
        problem = '录音文件不存在或已删除';
      } else {
        try {
          return { ...(await convertRecording(rec)), source: 'recording' };
        } catch (err) {
          if (!(err instanceof AudioConvertError)) throw err;
          problem = `录音无法转换为电话音频（${convertProblemText(err, extensionOf(rec.storedName))}）`;
        }
      }
      if (!prompt.text.trim()) throw new PromptAudioError(problem);
    }
    const tts = await o.synthesizer.synthesize(prompt.text);
    return { ...tts, source: 'tts', ...(problem ? { recordingProblem: problem } : {}) };
  };

  return { resolve };
};
