/**
 * The sim line's scripted customers (issue 16): the far end of a bot leg (or of an inbound call the
 * app answers) answers the bot: each time a prompt has finished playing, the customer waits
 * REPLY_DELAY_MS and says his next reply (a voiced burst of SAY_MS_PER_CHAR per character, at
 * least MIN_SAY_MS) or presses a key; when his replies run out he stays silent. Keyed on the
 * number's second-to-last digit (the last one picks the call's outcome, sim-provider.ts); the
 * caller's number for an inbound call.
 *
 * | 2nd-to-last digit | customer      | replies, one after each bot prompt          |
 * | ----------------- | ------------- | ------------------------------------------- |
 * | 0                 | interested    | "有兴趣", "多少钱" (a knowledge-base question), "好的" |
 * | 1                 | refuses       | "不需要"                                     |
 * | 2                 | silent        | nothing                                     |
 * | 3                 | keypad        | key 1                                       |
 * | 4                 | off the point | "今天天气不错" (matches nothing), "可以"      |
 * | 5                 | leaves a message | "有兴趣", "好的", nothing, "请明天上午给我回电话" |
 * | 6–9               | no script     | the usual far end (a burst every 5 s)        |
 *
 * A scripted customer hangs up only after SCRIPTED_TALK_SECONDS (the line's SIM_TALK_SECONDS cuts
 * the usual far end): script 0 reaches 转人工 in the demo 话术 with the default settings.
 * Script 5 reaches 转人工 in the bots' test flow; with no agent AI接待 asks for a message (its
 * prompt, then a beep): he waits out the prompt after 转人工 and speaks after the message prompt.
 *
 * What was said is kept per leg (text and time since the answer): the sim recognizer (a test double
 * of a recognition service, modules/aicall/bot/sim-recognizer.ts) returns the text of the reply the
 * voice-activity detector found in the audio.
 */
export type SimReply = { kind: 'say'; text: string } | { kind: 'digit'; digit: string } | { kind: 'wait' };
export type SimScript = { name: string; replies: SimReply[] };

/**
 * A scripted customer stays on the line while the bot talks with him, up to this long (or the
 * line's SIM_TALK_SECONDS when longer): the usual far end's 45 s would cut the interested customer
 * off before 转人工 in the demo 话术, whose prompts take about a minute (issue 23). His script, the
 * bot's end, or an outcome digit with a talk time of its own (4: 8 s) ends the call sooner.
 */
export const SCRIPTED_TALK_SECONDS = 300;

export const REPLY_DELAY_MS = 600;
export const SAY_MS_PER_CHAR = 250;
export const MIN_SAY_MS = 600;

const say = (text: string): SimReply => ({ kind: 'say', text });

export const SIM_SCRIPTS: Record<string, SimScript> = {
  '0': { name: 'interested', replies: [say('有兴趣'), say('多少钱'), say('好的')] },
  '1': { name: 'refuses', replies: [say('不需要')] },
  '2': { name: 'silent', replies: [] },
  '3': { name: 'keypad', replies: [{ kind: 'digit', digit: '1' }] },
  '4': { name: 'off the point', replies: [say('今天天气不错'), say('可以')] },
  '5': { name: 'leaves a message', replies: [say('有兴趣'), say('好的'), { kind: 'wait' }, say('请明天上午给我回电话')] },
};

/** The script of a number (its second-to-last digit), or undefined for the usual far end. */
export const simScriptOf = (number: string): SimScript | undefined => SIM_SCRIPTS[number.replace(/\D/g, '').slice(-2, -1)];

/** How long a reply takes to say (ms). */
export const sayMsOf = (text: string) => Math.max(MIN_SAY_MS, [...text].length * SAY_MS_PER_CHAR);
