import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeMp3, Mp3DecodeError } from '../../lib/audio/mp3-decode';
import { fromInt16, type MonoAudio, toLine8k } from '../../lib/audio/resample';
import { decodeWavAudio, WavDecodeError } from '../../lib/audio/wav-decode';

// Uploaded (untrusted) or synthesized audio to the line's format: 8 kHz mono 16-bit samples. The
// format is the one the file's extension claims, never sniffed from its content:
// - WAV: decoded in JS (lib/audio/wav-decode.ts),
// - MP3: mpg123 compiled to WASM (lib/audio/mp3-decode.ts), which has no file system or network,
// - M4A/MP4/AAC: ffmpeg (optional, TTS_FFMPEG_BIN), run with its demuxer forced to that container
//   (no probing: an HLS or concat playlist renamed .m4a is no MP4 and is refused), only the `file`
//   protocol allowed for the one uploaded copy it is given (no http, no nested playlists, MP4
//   external references off as by default), one thread, a memory limit and a timeout.
// Resampling to 8 kHz is done in JS (lib/audio/resample.ts, a windowed-sinc low-pass).
// An uploaded node recording is converted once at upload (checkRecording): a file that cannot be
// read is refused there with a clear message instead of failing a call later.

export class AudioConvertError extends Error {}

const CONVERT_TIMEOUT_MS = 15_000;
/** ffmpeg's address space (ulimit -v, KiB): decoding one short AAC file needs far less */
const FFMPEG_MEMORY_KB = 1024 * 1024;
/** a prompt longer than this is refused (the flow's prompts speak for seconds) */
export const MAX_PROMPT_SECONDS = 120;
/** shorter than this is no prompt (a frame of noise, a header with nothing after it) */
const MIN_PROMPT_SECONDS = 0.2;
/** formats decoded by ffmpeg, and the demuxer each is forced to */
const FFMPEG_FORMATS: Record<string, string> = { m4a: 'mov', mp4: 'mov', aac: 'aac' };

export type AudioBins = { ffmpegBin?: string };

/** Runs ffmpeg on the one file with its format forced; raw s16le 8 kHz mono on stdout. */
const runFfmpeg = (bin: string, file: string, demuxer: string): Promise<Int16Array> =>
  new Promise((resolve, reject) => {
    const args = [
      ...['-nostdin', '-hide_banner', '-loglevel', 'error', '-threads', '1'],
      ...['-protocol_whitelist', 'file', '-f', demuxer, '-i', `file:${file}`],
      ...['-map', '0:a:0', '-vn', '-sn', '-dn', '-t', String(MAX_PROMPT_SECONDS + 1)],
      ...['-ac', '1', '-ar', '8000', '-f', 's16le', 'pipe:1'],
    ];
    // the memory limit through the shell's ulimit (the binary is $0, its arguments "$@")
    const child = spawn('/bin/sh', ['-c', `ulimit -v ${FFMPEG_MEMORY_KB} && exec "$0" "$@"`, bin, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
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
    child.on('error', (err) => fail(`ffmpeg: ${err.message}`));
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
      // 127: the shell found no such binary
      if (code === 127) return fail(`ffmpeg: spawn ${bin} ENOENT`);
      if (code !== 0) return fail(`ffmpeg exited with ${code}: ${stderr.trim().slice(0, 200)}`);
      isDone = true;
      clearTimeout(timer);
      const bytes = Buffer.concat(chunks);
      const samples = new Int16Array(Math.floor(bytes.length / 2));
      for (let i = 0; i < samples.length; i++) samples[i] = bytes.readInt16LE(i * 2);
      resolve(samples);
    });
  });

/** M4A/MP4/AAC by ffmpeg, from a private temporary copy (an M4A's index may sit at its end: a pipe cannot seek there). */
export const ffmpegTo8k = async (ffmpegBin: string, input: Buffer, type: string): Promise<Int16Array> => {
  const demuxer = FFMPEG_FORMATS[type];
  if (!demuxer) throw new AudioConvertError(`unsupported audio type ${type}`);
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'crm-audio-'));
  const file = path.join(dir, `${randomUUID()}.${type}`);
  try {
    await fs.promises.writeFile(file, input, { mode: 0o600 });
    return await runFfmpeg(ffmpegBin, file, demuxer);
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
};

const decodeInJs = async (input: Buffer, type: 'wav' | 'mp3'): Promise<MonoAudio> => {
  try {
    if (type === 'wav') {
      // the longest allowed prompt at the highest rate the decoder takes
      return decodeWavAudio(input, (MAX_PROMPT_SECONDS + 1) * 384_000);
    }
    return await decodeMp3(input, { maxSeconds: MAX_PROMPT_SECONDS + 1, timeoutMs: CONVERT_TIMEOUT_MS });
  } catch (err) {
    if (err instanceof WavDecodeError || err instanceof Mp3DecodeError) throw new AudioConvertError(err.message);
    throw err;
  }
};

/**
 * Any supported audio (named by its extension, never sniffed) to 8 kHz mono samples: WAV and MP3
 * in JS/WASM, M4A/MP4/AAC by ffmpeg. Rejects with AudioConvertError.
 */
export const convertAudio = async (bins: AudioBins, input: Buffer, type: string): Promise<Int16Array> => {
  let samples: Int16Array;
  if (type === 'wav' || type === 'mp3') {
    const audio = await decodeInJs(input, type);
    if (audio.samples.length > MAX_PROMPT_SECONDS * audio.sampleRate) throw new AudioConvertError('audio too long');
    samples = toLine8k(audio.samples, audio.sampleRate);
  } else if (FFMPEG_FORMATS[type]) {
    samples = await ffmpegTo8k(bins.ffmpegBin || 'ffmpeg', input, type);
  } else {
    throw new AudioConvertError(`unsupported audio type ${type}`);
  }
  if (samples.length > MAX_PROMPT_SECONDS * 8000) throw new AudioConvertError('audio too long');
  if (samples.length < MIN_PROMPT_SECONDS * 8000) throw new AudioConvertError('no audio');
  return samples;
};

/** 8 kHz samples of PCM that is already in memory (a TTS answer at another rate). */
export const pcmTo8k = (samples: Int16Array, sampleRate: number) => toLine8k(fromInt16(samples), sampleRate);

/** Why a recording cannot be played on the line, in words an admin understands. */
export const convertProblemText = (err: AudioConvertError, type: string) => {
  if (/ENOENT/.test(err.message)) {
    return FFMPEG_FORMATS[type]
      ? '服务器未安装 ffmpeg，暂不能使用 m4a 录音，请上传 wav 或 mp3 格式'
      : '服务器缺少音频转换程序，请上传 wav 或 mp3 格式';
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
