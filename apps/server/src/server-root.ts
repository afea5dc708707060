import path from 'node:path';

/**
 * The server package's directory (apps/server). The source (src/) and the production bundle
 * (dist/, `npm run build:server`) both sit one level below it, so files shipped beside the code
 * (migrations, the contract font) are found from either.
 */
export const SERVER_ROOT = path.resolve(import.meta.dirname, '..');
