// Voice activity on the customer's 8 kHz audio, 20 ms frames: an energy detector for phone lines,
// where nothing cancels the echo of the bot's own voice. Each received frame comes with the frame
// the bot sent in the same tick (the reference); while the bot speaks, a frame counts as the
// customer's only when it is louder than the bot's recent output minus the echo loss the call has
// shown (the low percentile of sent-minus-received levels, so a few barge-in frames do not move
// it). Speech starts after `minSpeechMs` of voiced frames (short clicks and coughs are no turn)
// and ends after `endSilenceMs` without one; each turn's audio (with a little before and after)
// comes with its end, to be kept as a WAV (wav.ts).

export type VadOptions = {
  /** silence that ends a turn (hangover); VOICE-NOTES: 500–800 ms in the products compared */
  endSilenceMs: number;
  /** voiced time before a turn counts as speech */
  minSpeechMs: number;
  /** a turn longer than this is ended (a line left open on a television) */
  maxSpeechMs: number;
  /** a frame is voiced this far above the noise floor… */
  aboveNoiseDb: number;
  /** …and never below this level (dBFS) */
  minLevelDb: number;
  /** echo loss assumed until the call has shown its own (dB) */
  echoLossDb: number;
  /** the customer must be this much above the expected echo (dB) */
  echoMarginDb: number;
  /** how late the echo may come back (ms) */
  echoDelayMs: number;
  /** audio kept before the start and after the end of a turn */
  padMs: number;
};

export const DEFAULT_VAD: VadOptions = {
  endSilenceMs: 600,
  minSpeechMs: 160,
  maxSpeechMs: 30_000,
  aboveNoiseDb: 12,
  minLevelDb: -48,
  echoLossDb: 6,
  echoMarginDb: 6,
  echoDelayMs: 300,
  padMs: 200,
};

export const FRAME_MS = 20;
const FRAME = 160;
/** sent frames quieter than this are silence (dBFS) */
const REF_ACTIVE_DB = -50;
/** echo-loss samples kept (10 s of the bot speaking), the percentile used, and how many before it is */
const ERL_HISTORY = 500;
const ERL_PERCENTILE = 0.1;
const ERL_MIN_SAMPLES = 25;

export type VadSegment = {
  /** speech start and end, ms since the detector's first frame */
  startMs: number;
  endMs: number;
  /** the turn's audio from startMs − padMs to endMs + padMs (clamped) */
  samples: Int16Array;
  audioStartMs: number;
  /** ended by maxSpeechMs */
  isCut: boolean;
};

export type VadEvent = { type: 'start'; atMs: number } | { type: 'end'; segment: VadSegment };

/** Level of a frame in dBFS (−100 for digital silence). */
export const levelDb = (frame: Int16Array): number => {
  let sum = 0;
  for (let i = 0; i < frame.length; i++) sum += frame[i] * frame[i];
  const rms = Math.sqrt(sum / Math.max(1, frame.length));
  return rms < 1 ? -100 : 20 * Math.log10(rms / 32768);
};

export class VoiceActivityDetector {
  readonly options: VadOptions;
  private frameNo = 0;
  private noiseDb: number | undefined;
  private refLevels: number[] = [];
  private erlHistory: number[] = [];
  private erlCache: number | undefined;
  private erlAdded = 0;
  /** frames of the current candidate or turn, plus the pre-roll */
  private audio: Int16Array[] = [];
  private audioStartFrame = 0;
  private candidateStart: number | undefined;
  private voicedInCandidate = 0;
  private speechStart: number | undefined;
  private lastVoiced = -1;

  constructor(options: Partial<VadOptions> = {}) {
    this.options = { ...DEFAULT_VAD, ...options };
  }

  get isSpeaking() {
    return this.speechStart !== undefined;
  }

  /** the echo loss in use (dB); the percentile is recomputed every 10 new samples */
  get echoLossDb() {
    if (this.erlHistory.length < ERL_MIN_SAMPLES) return this.options.echoLossDb;
    if (this.erlCache === undefined || this.erlAdded >= 10) {
      const sorted = [...this.erlHistory].sort((a, b) => a - b);
      this.erlCache = Math.max(this.options.echoLossDb, sorted[Math.floor(sorted.length * ERL_PERCENTILE)]);
      this.erlAdded = 0;
    }
    return this.erlCache;
  }

  /**
   * One 20 ms frame received from the customer and the frame the bot sent in the same tick
   * (undefined or silence when the bot was quiet). Returns the events it caused.
   */
  push(frame: Int16Array, sent?: Int16Array): VadEvent[] {
    const o = this.options;
    const n = this.frameNo++;
    const level = levelDb(frame);
    const refLevel = sent ? levelDb(sent) : -100;
    const delayFrames = Math.max(1, Math.ceil(o.echoDelayMs / FRAME_MS));
    this.refLevels.push(refLevel);
    if (this.refLevels.length > delayFrames + 1) this.refLevels.shift();
    const refMax = Math.max(...this.refLevels);
    const isBotSpeaking = refMax > REF_ACTIVE_DB;

    this.noiseDb ??= level;
    const noiseThreshold = Math.max(this.noiseDb + o.aboveNoiseDb, o.minLevelDb);
    const isAboveNoise = level >= noiseThreshold;
    const echoCeiling = isBotSpeaking ? refMax - this.echoLossDb + o.echoMarginDb : -Infinity;
    const isVoiced = isAboveNoise && level >= echoCeiling;

    if (isBotSpeaking) {
      // what came back while the bot spoke and nobody else did: the echo loss of this call
      // (not inside a turn or a candidate: those frames may be the customer's quieter syllables)
      const isInTurn = this.speechStart !== undefined || this.candidateStart !== undefined;
      // (an echo under the noise only shows that the loss is at least down to the noise)
      if (!isVoiced && !isInTurn && refLevel > REF_ACTIVE_DB) {
        this.erlHistory.push(refMax - Math.max(level, noiseThreshold));
        this.erlAdded++;
        if (this.erlHistory.length > ERL_HISTORY) this.erlHistory.shift();
      }
    } else if (!isVoiced) {
      // the floor falls at once and rises slowly (≈ 1 s), only while both sides are quiet
      this.noiseDb = level < this.noiseDb ? level : this.noiseDb + 0.02 * (level - this.noiseDb);
    }

    this.keepAudio(frame, n);
    const events: VadEvent[] = [];
    if (isVoiced) this.lastVoiced = n;

    if (this.speechStart === undefined) {
      if (isVoiced) {
        if (this.candidateStart === undefined) {
          this.candidateStart = n;
          this.voicedInCandidate = 0;
        }
        this.voicedInCandidate++;
        if (this.voicedInCandidate * FRAME_MS >= o.minSpeechMs) {
          this.speechStart = this.candidateStart;
          events.push({ type: 'start', atMs: this.speechStart * FRAME_MS });
        }
      } else if (this.candidateStart !== undefined && (n - this.lastVoiced) * FRAME_MS >= Math.min(200, o.endSilenceMs)) {
        this.candidateStart = undefined; // a click or a cough
      }
    } else if ((n - this.lastVoiced) * FRAME_MS >= o.endSilenceMs) {
      events.push(this.endTurn(false));
    } else if ((n + 1 - this.speechStart) * FRAME_MS >= o.maxSpeechMs) {
      events.push(this.endTurn(true));
    }
    return events;
  }

  /** the call ended: a turn in progress ends at its last voiced frame */
  flush(): VadEvent[] {
    return this.speechStart === undefined ? [] : [this.endTurn(false)];
  }

  private keepAudio(frame: Int16Array, n: number) {
    this.audio.push(frame.slice());
    if (this.speechStart !== undefined || this.candidateStart !== undefined) return;
    // outside a turn keep only the pre-roll
    const keep = Math.ceil(this.options.padMs / FRAME_MS) + 1;
    while (this.audio.length > keep) this.audio.shift();
    this.audioStartFrame = n + 1 - this.audio.length;
  }

  private endTurn(isCut: boolean): VadEvent {
    const o = this.options;
    const start = this.speechStart ?? 0;
    const lastFrame = isCut ? this.frameNo - 1 : this.lastVoiced;
    const endMs = (lastFrame + 1) * FRAME_MS;
    const padFrames = Math.ceil(o.padMs / FRAME_MS);
    const from = Math.max(this.audioStartFrame, start - padFrames);
    const to = Math.min(this.frameNo, lastFrame + 1 + padFrames);
    const frames = this.audio.slice(from - this.audioStartFrame, to - this.audioStartFrame);
    const samples = new Int16Array(frames.length * FRAME);
    for (const [i, f] of frames.entries()) samples.set(f.subarray(0, FRAME), i * FRAME);
    this.speechStart = undefined;
    this.candidateStart = undefined;
    // what follows the turn starts the next pre-roll
    this.audio = this.audio.slice(Math.max(0, this.audio.length - padFrames - 1));
    this.audioStartFrame = this.frameNo - this.audio.length;
    return { type: 'end', segment: { startMs: start * FRAME_MS, endMs, samples, audioStartMs: from * FRAME_MS, isCut } };
  }
}
