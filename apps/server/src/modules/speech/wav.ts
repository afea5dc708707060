import fs from 'node:fs';
import path from 'node:path';

// 16-bit PCM WAV files, the bot's audio format (8 kHz mono on the line): writing samples, reading a
// file back (any PCM-16 WAV: the first channel), and cutting a stretch of a call into a file.

export type Pcm = { samples: Int16Array; sampleRate: number };

/** A 44-byte RIFF header plus little-endian samples (mono, 16 bit). */
export const encodeWav = (samples: Int16Array, sampleRate = 8000): Buffer => {
  const data = samples.length * 2;
  const buf = Buffer.alloc(44 + data);
  buf.write('RIFF', 0, 'ascii');
  buf.writeUInt32LE(36 + data, 4);
  buf.write('WAVE', 8, 'ascii');
  buf.write('fmt ', 12, 'ascii');
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20); // PCM
  buf.writeUInt16LE(1, 22); // mono
  buf.writeUInt32LE(sampleRate, 24);
  buf.writeUInt32LE(sampleRate * 2, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write('data', 36, 'ascii');
  buf.writeUInt32LE(data, 40);
  for (let i = 0; i < samples.length; i++) buf.writeInt16LE(samples[i], 44 + i * 2);
  return buf;
};

/**
 * Samples of a PCM-16 WAV (its first channel); undefined when the bytes are not one. Walks the
 * chunks, so LIST/fact chunks before `data` (sox and editors write them) are skipped.
 */
export const decodeWav = (buf: Buffer): Pcm | undefined => {
  if (buf.length < 12 || buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') return undefined;
  let at = 12;
  let fmt: { channels: number; sampleRate: number; bits: number; format: number } | undefined;
  while (at + 8 <= buf.length) {
    const id = buf.toString('ascii', at, at + 4);
    const size = buf.readUInt32LE(at + 4);
    const body = at + 8;
    if (id === 'fmt ' && size >= 16 && body + 16 <= buf.length) {
      fmt = {
        format: buf.readUInt16LE(body),
        channels: buf.readUInt16LE(body + 2),
        sampleRate: buf.readUInt32LE(body + 4),
        bits: buf.readUInt16LE(body + 14),
      };
    } else if (id === 'data') {
      // 0xfffe: WAVE_FORMAT_EXTENSIBLE, PCM in practice when 16 bit
      if (!fmt || (fmt.format !== 1 && fmt.format !== 0xfffe) || fmt.bits !== 16 || fmt.channels < 1) return undefined;
      const end = Math.min(buf.length, body + size);
      const frameBytes = 2 * fmt.channels;
      const n = Math.floor((end - body) / frameBytes);
      const samples = new Int16Array(n);
      for (let i = 0; i < n; i++) samples[i] = buf.readInt16LE(body + i * frameBytes);
      return { samples, sampleRate: fmt.sampleRate };
    }
    at = body + size + (size % 2);
  }
  return undefined;
};

/** Writes the samples as a WAV file (through a temporary name, so readers never see half a file). */
export const writeWav = async (file: string, samples: Int16Array, sampleRate = 8000): Promise<void> => {
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await fs.promises.writeFile(tmp, encodeWav(samples, sampleRate));
  await fs.promises.rename(tmp, file);
};

export const readWav = async (file: string): Promise<Pcm | undefined> => decodeWav(await fs.promises.readFile(file));

/** The samples between two times (ms from the start), clamped to what exists. */
export const cutPcm = (samples: Int16Array, fromMs: number, toMs: number, sampleRate = 8000): Int16Array => {
  const from = Math.max(0, Math.min(samples.length, Math.round((fromMs * sampleRate) / 1000)));
  const to = Math.max(from, Math.min(samples.length, Math.round((toMs * sampleRate) / 1000)));
  return samples.slice(from, to);
};

/** Cuts [fromMs, toMs) of a call's samples into a WAV file (a customer turn kept for listening). */
export const writeWavSegment = async (
  file: string,
  samples: Int16Array,
  fromMs: number,
  toMs: number,
  sampleRate = 8000,
): Promise<{ file: string; durationMs: number }> => {
  const cut = cutPcm(samples, fromMs, toMs, sampleRate);
  await writeWav(file, cut, sampleRate);
  return { file, durationMs: Math.round((cut.length * 1000) / sampleRate) };
};

/** Length of samples in ms. */
export const durationMsOf = (samples: number, sampleRate = 8000) => Math.round((samples * 1000) / sampleRate);
