/** SPEC §5 upload rules, enforced by the server and by the shared Upload widget. */
export const UPLOAD_EXTENSIONS = [
  'jpg',
  'jpeg',
  'png',
  'wav',
  'mp4',
  'mp3',
  'm4a',
  'doc',
  'docx',
  'pdf',
  'txt',
  'xls',
  'xlsx',
  'rar',
  'zip',
] as const;
export const IMAGE_EXTENSIONS = ['png', 'jpg', 'jpeg'] as const;
export const UPLOAD_MAX_BYTES = 20 * 1024 * 1024;
export const UPLOAD_MAX_FILES = 5;
export type UploadResult = { id: number; url: string; name: string; size: number };
export const extensionOf = (name: string): string => {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
};
