import { ERRORS } from '@crm/contracts';
import { Alert } from 'antd';
import { useAicallSpeech } from '../api';

/**
 * Shown where an admin starts the bot (AI外呼任务, AI接待) when the server cannot synthesize speech
 * (issue 23): starting a task or turning on a number is refused then (116037), and says so here first.
 */
export const SpeechAlert = () => {
  const speech = useAicallSpeech();
  if (!speech.data || speech.data.isAvailable) return null;
  return (
    <Alert
      type="error"
      showIcon
      style={{ marginBottom: 12 }}
      title="语音合成不可用"
      description={ERRORS.SPEECH_BOT_UNAVAILABLE.msg}
      data-testid="speech-unavailable"
    />
  );
};
