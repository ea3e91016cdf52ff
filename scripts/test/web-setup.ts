import { configure } from '@testing-library/react';

// The web project's setup (vitest.config.ts). findBy* and waitFor give up after 1 s by default; a
// page the router loads lazily took longer on a loaded 2-core CI machine with both test lanes
// running (frontends/en/src/routes/routes.test.tsx failed once that way). Waiting longer costs a
// passing test nothing: it returns as soon as the element is there.
configure({ asyncUtilTimeout: 10_000 });
