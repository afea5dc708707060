import { registerUploadScene } from '../uploads/upload-scenes';
import { checkUploadedRecording } from './prompt-audio';

/** An AI bot node recording (upload scene 'aibot') is refused at upload when the line could not play it. */
export const registerSpeechUploads = () =>
  registerUploadScene('aibot', (config, file) => checkUploadedRecording(config.tts, file.name, file.buf));
