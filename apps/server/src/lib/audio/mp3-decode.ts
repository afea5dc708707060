import { MPEGDecoder } from 'mpg123-decoder';
import { downmix, type MonoAudio } from './resample';

// MPEG audio (MP3) to mono float samples with mpg123 compiled to WASM (npm mpg123-decoder): the
// decoder sees only the bytes it is given, it has no file system or network to open anything a
// file names (an ID3 tag, a playlist inside the "MP3"), and it does not sniff other formats. Fed
// in chunks so the output is bounded (stops past `maxSeconds`) and the event loop breathes
// between chunks; a deadline bounds the time.

export class Mp3DecodeError extends Error {}

const CHUNK = 64 * 1024;

export type Mp3Limits = { maxSeconds: number; timeoutMs: number };

export const decodeMp3 = async (input: Buffer, limits: Mp3Limits): Promise<MonoAudio> => {
  const decoder = new MPEGDecoder();
  await decoder.ready;
  const deadline = Date.now() + limits.timeoutMs;
  const parts: Float32Array[] = [];
  let sampleRate = 0;
  let total = 0;
  try {
    for (let at = 0; at < input.length; at += CHUNK) {
      const r = decoder.decode(new Uint8Array(input.buffer, input.byteOffset + at, Math.min(CHUNK, input.length - at)));
      if (r.samplesDecoded > 0) {
        // a stream that changes its rate midway is no recording we can play
        if (sampleRate && r.sampleRate !== sampleRate) throw new Mp3DecodeError('mp3 sample rate changes');
        sampleRate = r.sampleRate;
        parts.push(downmix(r.channelData.map((c) => c.slice(0, r.samplesDecoded))));
        total += r.samplesDecoded;
        if (total > limits.maxSeconds * sampleRate) throw new Mp3DecodeError('audio too long');
      }
      if (Date.now() > deadline) throw new Mp3DecodeError('audio conversion timed out');
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    decoder.free();
  }
  const samples = new Float32Array(total);
  let pos = 0;
  for (const p of parts) {
    samples.set(p, pos);
    pos += p.length;
  }
  return { samples, sampleRate: sampleRate || 8000 };
};
