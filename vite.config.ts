import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

// Writes .gz and .br copies of text assets next to them once the bundle is final on disk;
// the server sends those to browsers that accept them, so nothing is compressed per request.
function precompress(): Plugin {
  return {
    name: 'precompress',
    apply: 'build',
    enforce: 'post',
    async writeBundle(options, bundle) {
      const outDir = options.dir ?? 'dist';
      const texts = Object.keys(bundle).filter((name) => /\.(js|css|html|svg|json)$/.test(name));
      await Promise.all(
        texts.map(async (name) => {
          const path = join(outDir, name);
          const source = await readFile(path);
          if (source.length < 1024) return;
          const brotli = { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } };
          await writeFile(`${path}.gz`, await gzipAsync(source, { level: 9 }));
          await writeFile(`${path}.br`, await brotliAsync(source, brotli));
        }),
      );
    },
  };
}

// Chunks holding any staff-only code or text (app/features/admin/, the admin messages) are
// named `admin-…`, so a test can check that a customer's browser never downloads one.
const STAFF_ONLY =
  /[\\/]app[\\/](features[\\/]admin[\\/]|i18n[\\/]locales[\\/][a-z]+[\\/]admin(-[a-z]+)?\.json)/;

function chunkFileNames(chunk: { moduleIds: readonly string[] }): string {
  return chunk.moduleIds.some((id) => STAFF_ONLY.test(id))
    ? 'assets/admin-[name]-[hash].js'
    : 'assets/[name]-[hash].js';
}

export default defineConfig({
  root: 'app',
  plugins: [react(), tailwindcss(), precompress()],
  build: {
    outDir: '../dist/app',
    emptyOutDir: true,
    sourcemap: 'hidden',
    target: 'es2022',
    rollupOptions: { output: { chunkFileNames } },
  },
  server: {
    proxy: { '/api': 'http://localhost:3000', '/app': { target: 'ws://localhost:3000', ws: true } },
  },
});
