import type { MessageInstance } from 'antd/es/message/interface';
import type { HookAPI as ModalHookAPI } from 'antd/es/modal/useModal';

/** antd's message and modal from inside <App>, so the http client can show errors in one place. */
export const ui: { message: MessageInstance | null; modal: ModalHookAPI | null; navigate: (to: string) => void } = {
  message: null,
  modal: null,
  navigate: (to) => window.location.assign(to),
};
