import type { CallControlLine } from '../../../telephony/control';
import type { SimControlLine } from '../../../telephony/sim/sim-control';
import type { Recognizer } from '../../speech/recognizer';
import type { SpeechKit } from '../../speech/speech';
import type { VadSegment } from '../../speech/vad';
import type { Ear } from './bot-ear';
import { simRecognizer } from './sim-recognizer';

// The customer's turn: a key press, an utterance (the VAD's segment, then its text from the speech
// kit's recognizer), silence for the node's wait, or the end of the call.

export type Heard =
  | { kind: 'ended' }
  | { kind: 'silence' }
  | { kind: 'digit'; digit: string; atMs: number }
  | { kind: 'speech'; segment: VadSegment; text: string };

/** The kit's recognizer; on the sim line without one, the sim line's test double (sim-recognizer.ts). */
export const recognizerFor = (kit: SpeechKit, line: CallControlLine): Recognizer | undefined =>
  kit.recognizer ?? (line.name === 'sim' ? simRecognizer(line as SimControlLine) : undefined);

/**
 * The recognizer's text for one utterance ('' when there is no recognizer or it failed: the flow
 * reads it as 未识别). The session's name says the leg and where the utterance is on the call's
 * clock (`<legId>@<startMs>-<endMs>`), as FunASR's wav_name labels a stream.
 */
export const recognize = async (recognizer: Recognizer | undefined, legId: string, segment: VadSegment): Promise<string> => {
  if (!recognizer) return '';
  try {
    const session = await recognizer.open({
      sampleRate: 8000,
      name: `${legId}@${segment.startMs}-${segment.endMs}`,
      onEvent: () => undefined,
    });
    session.push(segment.samples);
    return (await session.finish()).trim();
  } catch {
    return '';
  }
};

/** Waits for the customer: silence once `waitMs` pass (on the call's clock) with nobody speaking. */
export const hear = async (recognizer: Recognizer | undefined, legId: string, ear: Ear, waitMs: number): Promise<Heard> => {
  const deadline = ear.nowMs() + waitMs;
  for (;;) {
    const e = await ear.next(deadline);
    if (e.kind === 'speechStart') continue;
    if (e.kind === 'ended') return { kind: 'ended' };
    if (e.kind === 'silence') return { kind: 'silence' };
    if (e.kind === 'digit') return { kind: 'digit', digit: e.digit, atMs: e.atMs };
    return { kind: 'speech', segment: e.segment, text: await recognize(recognizer, legId, e.segment) };
  }
};
