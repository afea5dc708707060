import type { Config } from '../../config';

/** A scene's own check of an upload (after the type and content checks), refusing with an AppError. */
export type UploadSceneCheck = (config: Config, file: { name: string; buf: Buffer }) => Promise<void>;

const checks = new Map<string, UploadSceneCheck>();

/**
 * Registers what a scene asks more of its uploads (once at start-up, from the module the scene
 * belongs to): an AI bot node recording must convert for the line now, not fail a call later.
 */
export const registerUploadScene = (scene: string, check: UploadSceneCheck) => {
  checks.set(scene, check);
};

/** Runs the scene's check on every file of a request (none for a scene without one). */
export const checkSceneUploads = async (config: Config, scene: string, files: { name: string; buf: Buffer }[]) => {
  const check = checks.get(scene);
  if (check) for (const file of files) await check(config, file);
};
