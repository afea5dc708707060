/** 8 kHz mono 16-bit PCM: what a G.711 call recording decodes to. */
export const SAMPLE_RATE = 8000;

/** A small seeded generator: the same call always sounds the same. */
const seeded = (seedText: string) => {
  let h = 2166136261;
  for (const ch of seedText) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  let state = h >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
};

/** A WAV file's buffer (8 kHz mono 16-bit PCM) for `total` samples: its 44-byte header written, the samples zero. */
const wavBuffer = (total: number): Buffer => {
  const buf = Buffer.alloc(44 + total * 2);
  buf.write('RIFF', 0);
  buf.writeUInt32LE(36 + total * 2, 4);
  buf.write('WAVE', 8);
  buf.write('fmt ', 12);
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20); // PCM
  buf.writeUInt16LE(1, 22); // mono
  buf.writeUInt32LE(SAMPLE_RATE, 24);
  buf.writeUInt32LE(SAMPLE_RATE * 2, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write('data', 36);
  buf.writeUInt32LE(total * 2, 40);
  return buf;
};

/**
 * A WAV recording of `seconds` length for the sim line: two "speakers" take turns (voiced
 * tone bursts at about 4 syllables per second, one lower and one higher), with short pauses
 * of line noise between turns. Not speech, but it plays, has the call's real length and
 * looks like a conversation in a waveform view.
 */
export const simRecording = (seconds: number, seed: string): Buffer => {
  const total = Math.max(0, Math.round(seconds * SAMPLE_RATE));
  const buf = wavBuffer(total);

  const rand = seeded(seed);
  let i = 0;
  let speaker = 0;
  while (i < total) {
    const turn = Math.min(total - i, Math.floor((1.5 + rand() * 2.5) * SAMPLE_RATE));
    const base = speaker === 0 ? 140 + rand() * 30 : 210 + rand() * 40;
    const syllable = 3.5 + rand();
    for (let k = 0; k < turn; k++, i++) {
      const t = k / SAMPLE_RATE;
      const envelope = Math.max(0, Math.sin(Math.PI * syllable * t)) ** 2;
      const voice =
        Math.sin(2 * Math.PI * base * t) + 0.5 * Math.sin(4 * Math.PI * base * t) + 0.25 * Math.sin(6 * Math.PI * base * t);
      const sample = 0.3 * envelope * voice + 0.01 * (rand() * 2 - 1);
      buf.writeInt16LE(Math.round(Math.max(-1, Math.min(1, sample)) * 32767), 44 + i * 2);
    }
    const pause = Math.min(total - i, Math.floor((0.2 + rand() * 0.4) * SAMPLE_RATE));
    for (let k = 0; k < pause; k++, i++) buf.writeInt16LE(Math.round(0.01 * (rand() * 2 - 1) * 32767), 44 + i * 2);
    speaker = 1 - speaker;
  }
  return buf;
};

/** A WAV file (8 kHz mono 16-bit PCM) of the given samples. */
export const wavOf = (samples: Int16Array): Buffer => {
  const buf = wavBuffer(samples.length);
  for (let i = 0; i < samples.length; i++) buf.writeInt16LE(samples[i], 44 + i * 2);
  return buf;
};

/** The samples of an 8 kHz mono 16-bit WAV (wavOf, simRecording, a recording read back). */
export const samplesOfWav = (wav: Buffer): Int16Array => {
  const dataAt = wav.indexOf('data', 12) + 8;
  const n = Math.floor((wav.length - dataAt) / 2);
  const out = new Int16Array(n);
  for (let i = 0; i < n; i++) out[i] = wav.readInt16LE(dataAt + i * 2);
  return out;
};
