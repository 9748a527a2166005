import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

// Writes .gz and .br copies of text assets next to them; the server sends those to
// browsers that accept them, so nothing is compressed per request.
function precompress(): Plugin {
  return {
    name: 'precompress',
    apply: 'build',
    async generateBundle(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (!/\.(js|css|html|svg|json)$/.test(file.fileName)) continue;
        const source = file.type === 'chunk' ? file.code : file.source;
        const buffer = Buffer.from(source);
        if (buffer.length < 1024) continue;
        this.emitFile({
          type: 'asset',
          fileName: `${file.fileName}.gz`,
          source: await gzipAsync(buffer, { level: 9 }),
        });
        this.emitFile({
          type: 'asset',
          fileName: `${file.fileName}.br`,
          source: await brotliAsync(buffer, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        });
      }
    },
  };
}

export default defineConfig({
  root: 'app',
  plugins: [react(), tailwindcss(), precompress()],
  build: {
    outDir: '../dist/app',
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
  },
  server: {
    proxy: { '/api': 'http://localhost:3000', '/app': { target: 'ws://localhost:3000', ws: true } },
  },
});
