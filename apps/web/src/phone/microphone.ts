/**
 * SPEC §5 microphone check before the extension goes online: the five failures, in words an
 * agent can act on.
 */
export const MIC_MESSAGES = {
  denied: '麦克风权限被拒绝，请在浏览器地址栏左侧允许使用麦克风后重试',
  notSupported: '当前浏览器不支持麦克风，请使用最新版 Chrome 或 Edge 浏览器，并通过 https 访问',
  notFound: '未检测到麦克风设备，请插入耳麦或麦克风后重试',
  cannotOpen: '无法打开麦克风，可能正被其他程序占用，请关闭后重试',
  noRecording: '当前浏览器不支持录音，请更换最新版 Chrome 或 Edge 浏览器',
} as const;

/** The message for a getUserMedia failure (DOMException name). */
export const micErrorMessage = (errorName: string): string => {
  switch (errorName) {
    case 'NotAllowedError':
    case 'PermissionDeniedError':
    case 'SecurityError':
      return MIC_MESSAGES.denied;
    case 'NotFoundError':
    case 'DevicesNotFoundError':
    case 'OverconstrainedError':
      return MIC_MESSAGES.notFound;
    case 'NotReadableError':
    case 'TrackStartError':
    case 'AbortError':
      return MIC_MESSAGES.cannotOpen;
    case 'TypeError':
      return MIC_MESSAGES.notSupported;
    default:
      return MIC_MESSAGES.cannotOpen;
  }
};

/** A microphone that has not opened by then is reported as unusable rather than leaving 在线 hanging. */
export const MIC_TIMEOUT_MS = 20_000;

/** Asks for the microphone once and releases it; resolves to the failure message or null. */
export const checkMicrophone = async (timeoutMs = MIC_TIMEOUT_MS): Promise<string | null> => {
  if (!navigator.mediaDevices?.getUserMedia) return MIC_MESSAGES.notSupported;
  let stream: MediaStream | null;
  const request = navigator.mediaDevices.getUserMedia({ audio: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    stream = await Promise.race([request, new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), timeoutMs)))]);
  } catch (err) {
    return micErrorMessage((err as { name?: string }).name ?? '');
  } finally {
    clearTimeout(timer);
  }
  if (!stream) {
    // A late answer still gets its tracks released.
    request
      .then((late) => {
        for (const track of late.getTracks()) track.stop();
      })
      .catch(() => undefined);
    return MIC_MESSAGES.cannotOpen;
  }
  const hasTrack = stream.getAudioTracks().length > 0;
  for (const track of stream.getTracks()) track.stop();
  if (!hasTrack || typeof window.RTCPeerConnection !== 'function') return MIC_MESSAGES.noRecording;
  return null;
};
