import { Button } from 'antd';

/**
 * The footer of a modal once it shows its result: one 完成 that closes it. A button of its own, not
 * the OK button that was loading a moment before: that button's loading icon leaves with a motion,
 * and an e2e run once saw the motion never end, the button named "loading 完成" for minutes.
 */
export const doneFooter = (onClose: () => void) => [
  <Button key="done" type="primary" onClick={onClose}>
    完成
  </Button>,
];
