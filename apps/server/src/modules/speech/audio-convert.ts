import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Any uploaded or synthesized audio to the line's format: 8 kHz mono 16-bit samples. sox reads WAV
// of any rate/width/channels, AIFF, FLAC, OGG…; Debian's sox has no MP3 or M4A handler (`sox -h`
// lists neither), so those go through ffmpeg (Debian's `ffmpeg` package; TTS_FFMPEG_BIN). An
// uploaded node recording is converted once at upload (checkRecording): a file neither can read is
// refused there with a clear message instead of failing a call later.

export class AudioConvertError extends Error {}

const CONVERT_TIMEOUT_MS = 15_000;
/** a prompt longer than this is refused (the flow's prompts speak for seconds) */
export const MAX_PROMPT_SECONDS = 120;
/** formats decoded by ffmpeg (sox cannot read them here) */
const FFMPEG_TYPES = new Set(['mp3', 'm4a', 'mp4', 'aac']);

export type AudioBins = { soxBin: string; ffmpegBin?: string };

/** Runs a converter that writes raw s16le 8 kHz mono on stdout (stdin: `input`, or nothing). */
const runRaw = (bin: string, args: string[], input: Buffer | null, tool: string): Promise<Int16Array> =>
  new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let isDone = false;
    const fail = (why: string) => {
      if (isDone) return;
      isDone = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new AudioConvertError(why));
    };
    const timer = setTimeout(() => fail('audio conversion timed out'), CONVERT_TIMEOUT_MS);
    child.on('error', (err) => fail(`${tool}: ${err.message}`));
    child.stdin.on('error', () => undefined);
    child.stderr.on('data', (c: Buffer) => {
      if (stderr.length < 500) stderr += c.toString();
    });
    child.stdout.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_PROMPT_SECONDS * 8000 * 2) return fail('audio too long');
      chunks.push(c);
    });
    child.on('close', (code) => {
      if (isDone) return;
      if (code !== 0) return fail(`${tool} exited with ${code}: ${stderr.trim().slice(0, 200)}`);
      isDone = true;
      clearTimeout(timer);
      const bytes = Buffer.concat(chunks);
      const samples = new Int16Array(Math.floor(bytes.length / 2));
      for (let i = 0; i < samples.length; i++) samples[i] = bytes.readInt16LE(i * 2);
      if (samples.length === 0) return reject(new AudioConvertError('no audio'));
      resolve(samples);
    });
    child.stdin.end(input ?? undefined);
  });

/** `type`: sox's name of the input format (the file's extension: wav, flac…). */
export const convertTo8k = (soxBin: string, input: Buffer, type: string): Promise<Int16Array> =>
  runRaw(
    soxBin,
    ['-q', '-t', type, '-', '-t', 'raw', '-r', '8000', '-c', '1', '-b', '16', '-e', 'signed-integer', '-L', '-'],
    input,
    'sox',
  );

/** MP3/M4A by ffmpeg, from a temporary file (an M4A's index may sit at its end: a pipe cannot seek there). */
export const ffmpegTo8k = async (ffmpegBin: string, input: Buffer, type: string): Promise<Int16Array> => {
  const file = path.join(os.tmpdir(), `crm-audio-${randomUUID()}.${type}`);
  await fs.promises.writeFile(file, input);
  try {
    return await runRaw(
      ffmpegBin,
      ['-nostdin', '-hide_banner', '-loglevel', 'error', '-i', file, '-vn', '-ac', '1', '-ar', '8000', '-f', 's16le', '-'],
      null,
      'ffmpeg',
    );
  } finally {
    await fs.promises.rm(file, { force: true });
  }
};

/** Any supported audio (by its extension) to 8 kHz mono samples: MP3/M4A by ffmpeg, the rest by sox. */
export const convertAudio = (bins: AudioBins, input: Buffer, type: string): Promise<Int16Array> =>
  FFMPEG_TYPES.has(type) ? ffmpegTo8k(bins.ffmpegBin || 'ffmpeg', input, type) : convertTo8k(bins.soxBin, input, type);

/** Why a recording cannot be played on the line, in words an admin understands. */
export const convertProblemText = (err: AudioConvertError, type: string) => {
  if (/ENOENT/.test(err.message)) {
    return FFMPEG_TYPES.has(type)
      ? '服务器未安装 ffmpeg，暂不能使用 mp3/m4a 录音，请上传 wav 格式'
      : '服务器未安装 sox，暂不能使用录音';
  }
  if (err.message === 'audio too long') return `录音过长，最长${MAX_PROMPT_SECONDS}秒`;
  if (err.message === 'no audio') return '录音中没有声音';
  return '录音文件已损坏或格式无法识别';
};

/**
 * A node recording at upload: converted once, so a file the bot could not play is refused now.
 * Resolves to its length in seconds; rejects with the reason in Chinese (convertProblemText).
 */
export const checkRecording = async (bins: AudioBins, input: Buffer, type: string): Promise<number> => {
  try {
    const samples = await convertAudio(bins, input, type);
    return samples.length / 8000;
  } catch (err) {
    if (err instanceof AudioConvertError) throw new AudioConvertError(convertProblemText(err, type));
    throw err;
  }
};
