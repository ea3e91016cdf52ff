import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
// Relative, not the package name: Vite bundles the config's relative imports, while a package's
// TypeScript source would be left to Node to load.
import { buildIdPlugin } from '../kit/src/vite-build-id.js';

// Dev server: the app on 5173 (infra/ports.json's frontend-cn), face A's calls proxied to
// bff-cn, so the browser sees one origin as it does when bff-cn serves the built app.
const BFF_CN = process.env['BFF_CN_URL'] ?? 'http://127.0.0.1:8081';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), buildIdPlugin()],
  server: {
    port: 5173,
    strictPort: true,
    proxy: { '/v1': BFF_CN, '/v2': BFF_CN },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Hashed names under assets/ (Vite's default): bff-cn caches them for a year.
    assetsDir: 'assets',
    sourcemap: false,
    target: 'es2022',
    // ECharts (the chart pages' chunk) is one library of ~650 kB; it never loads on the landing route.
    chunkSizeWarningLimit: 700,
  },
});
