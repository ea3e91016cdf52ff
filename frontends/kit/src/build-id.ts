declare const __BUILD_ID__: string | undefined;

/** This build's id, set by each app's vite.config.ts (kit/src/vite-build-id.ts; absent under the unit tests). */
export const BUILD_ID: string = typeof __BUILD_ID__ === 'string' ? __BUILD_ID__ : 'development';
