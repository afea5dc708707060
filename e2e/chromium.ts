/**
 * The one way our tests start the system Chromium (Debian package, never a downloaded build):
 * no sandbox as root, and no background traffic off this machine.
 */
export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** A fake microphone that is allowed without a prompt (the softphone checks it before going online). */
export const FAKE_MEDIA_ARGS = ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'];
