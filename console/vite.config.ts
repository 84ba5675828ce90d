// The console's build: served by the service under /console/ from dist/console, hashed assets.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: '../dist/console',
    emptyOutDir: true,
    assetsDir: 'assets',
    // Hashed names only: the service marks them immutable.
    sourcemap: false,
    // The dashboards' chunk carries ECharts (about 200 KB gzip); it loads only with them.
    chunkSizeWarningLimit: 700,
  },
});
