import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|wasm|map)$/;

/**
 * Precompressed copies of the build (issue 23.3): every text file of 1 KB or more gets a `.br`
 * (brotli quality 10: within 2 % of 11 at
 * less than half its time, which `npm start` pays on every start) and a `.gz` (gzip -9) beside it, kept only when smaller. The server's static
 * plugin sends them by the request's Accept-Encoding, so nothing is compressed per request.
 */
const precompress = (): Plugin => {
  let outDir = 'dist';
  return {
    name: 'crm-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async writeBundle(_options, bundle) {
      const files = Object.keys(bundle).filter((f) => COMPRESSIBLE.test(f));
      await Promise.all(
        files.map(async (file) => {
          const full = path.join(outDir, file);
          const data = await fs.readFile(full);
          if (data.length < 1024) return;
          const [br, gz] = await Promise.all([
            brotli(data, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: 10,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
              },
            }),
            gzip(data, { level: 9 }),
          ]);
          if (br.length < data.length) await fs.writeFile(`${full}.br`, br);
          if (gz.length < data.length) await fs.writeFile(`${full}.gz`, gz);
        }),
      );
    },
  };
};

/** Libraries in their own long-cached chunks: React and its router (every page), ECharts, JsSIP. */
const VENDOR_GROUPS = [
  { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
  { name: 'echarts', test: /node_modules[\\/](echarts|zrender|tslib)[\\/]/ },
  { name: 'jssip', test: /node_modules[\\/](jssip|sdp-transform|events|debug|ms)[\\/]/ },
];

export default defineConfig({
  plugins: [react(), precompress()],
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:3000', '/ws': { target: 'ws://127.0.0.1:3000', ws: true } },
  },
  build: {
    outDir: 'dist',
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: { codeSplitting: { groups: VENDOR_GROUPS } },
    },
  },
});
