/**
 * The call stays above everything else of the page: antd drawers and modals sit at 1000, their
 * pop-ups at 1050; the in-call modal, the call bar and the call button sit above them (issue 11).
 */
export const CALL_LAYER_Z = 1100;
