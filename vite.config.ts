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

// Two builds: the browser's (the app, index.html, and the public pages' script, site.html)
// and the server's entry that renders public pages (`vite build --ssr`, loaded by the
// server from dist/server; server/modules/site/site-renderer.ts).
export default defineConfig(({ isSsrBuild }) => ({
  root: 'app',
  plugins: [react(), tailwindcss(), ...(isSsrBuild ? [] : [precompress()])],
  build: isSsrBuild
    ? {
        outDir: '../dist/server',
        emptyOutDir: true,
        target: 'node20',
        rollupOptions: { input: 'app/entry-server.tsx' },
      }
    : {
        outDir: '../dist/app',
        emptyOutDir: true,
        sourcemap: 'hidden' as const,
        target: 'es2022',
        rollupOptions: {
          input: { index: 'app/index.html', site: 'app/site.html' },
          output: { chunkFileNames },
        },
      },
  server: {
    proxy: { '/api': 'http://localhost:3000', '/app': { target: 'ws://localhost:3000', ws: true } },
  },
}));
