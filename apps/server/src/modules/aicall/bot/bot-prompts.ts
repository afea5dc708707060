import type { Db } from '../../../db/client';
import { type RecordingSource, tenantRecordings } from '../../speech/prompt-audio';
import type { SpeechKit } from '../../speech/speech';
import { readWav } from '../../speech/wav';

// What the bot says, as 8 kHz samples: the node's (or knowledge-base entry's) uploaded recording,
// else its text synthesized (speech kit: both cached on disk); the samples of recent prompts are
// kept in memory so a busy task does not read the same files for every call.

const MEMORY_PROMPTS = 200;
const memory = new Map<string, Int16Array>();

const remember = (file: string, samples: Int16Array) => {
  memory.set(file, samples);
  if (memory.size > MEMORY_PROMPTS) memory.delete(memory.keys().next().value as string);
};

export type PromptSource = { text: string; audioFileId: number | null };

export const createPromptPlayer = (kit: SpeechKit, db: Db, dataDir: string, tenantId: number) => {
  const recordings: RecordingSource = tenantRecordings(db, dataDir, tenantId);
  /** the prompt's samples; rejects when there is neither a usable recording nor text to synthesize */
  return async (p: PromptSource): Promise<Int16Array> => {
    const audio = await kit.promptAudio.resolve(p, recordings);
    const hit = memory.get(audio.file);
    if (hit) return hit;
    const pcm = await readWav(audio.file);
    if (!pcm) throw new Error(`unreadable prompt audio ${audio.file}`);
    remember(audio.file, pcm.samples);
    return pcm.samples;
  };
};
