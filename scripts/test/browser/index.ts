export { BLOCKING_IMPACTS, blockingViolations, describeViolations, expectAccessible, runAxe } from './axe.js';
export { CHROMIUM_BIN, chromiumArgs, launchChromium } from './chromium.js';
export { HOST_RESOLVER_RULES, isLocalUrl } from './outside-requests.js';
export {
  SCREENSHOT_DIR,
  VIEWPORTS,
  captureScreens,
  openTestPage,
  screenshotPath,
  type TestPage,
  type ViewportName,
} from './test-page.js';
