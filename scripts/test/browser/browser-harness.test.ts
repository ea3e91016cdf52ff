import type { Result } from 'axe-core';
import { describe, expect, it } from 'vitest';
import { blockingViolations, describeViolations } from './axe.js';
import { chromiumArgs } from './chromium.js';
import { isLocalUrl } from './outside-requests.js';
import { SCREENSHOT_DIR, VIEWPORTS, screenshotPath } from './test-page.js';

describe('isLocalUrl', () => {
  it('lets loopback and in-browser URLs through', () => {
    for (const url of [
      'http://127.0.0.1:8081/',
      'http://localhost:5173/assets/x.js',
      'http://LOCALHOST/',
      'http://[::1]:8081/v1/web_init',
      'ws://127.0.0.1:8081/socket',
      'data:image/png;base64,AAAA',
      'blob:http://127.0.0.1:8081/6c1f',
      'about:blank',
    ])
      expect(isLocalUrl(url), url).toBe(true);
  });

  it('counts every other host as outside', () => {
    for (const url of [
      'https://fonts.googleapis.com/css2?family=Noto+Sans+SC',
      'https://cdn.jsdelivr.net/npm/x',
      'http://127.0.0.2/',
      'http://10.0.0.1/',
      'http://localhost.evil.example/',
      'http://127.0.0.1.nip.io/',
      'http://[::2]/',
      'not a url',
    ])
      expect(isLocalUrl(url), url).toBe(false);
  });
});

describe('chromiumArgs', () => {
  it('drops the sandbox only as root and always walls off name resolution', () => {
    expect(chromiumArgs({ root: true })).toContain('--no-sandbox');
    expect(chromiumArgs({ root: false })).not.toContain('--no-sandbox');
    expect(chromiumArgs({ root: false })).toContain(
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1, EXCLUDE [::1]',
    );
  });
});

describe('screenshots', () => {
  it('writes <name>-<viewport>.png under var/test-output/screenshots', () => {
    expect(SCREENSHOT_DIR).toMatch(/\/var\/test-output\/screenshots\/$/);
    expect(screenshotPath('fixture-app', 'desktop')).toBe(`${SCREENSHOT_DIR}fixture-app-desktop.png`);
    expect(screenshotPath('ip.lookup_1', 'phone', '/tmp/shots')).toBe('/tmp/shots/ip.lookup_1-phone.png');
  });

  it('refuses names that would write elsewhere', () => {
    for (const name of ['../escape', 'a/b', '', '.hidden', 'a..b', 'x y'])
      expect(() => screenshotPath(name, 'desktop')).toThrow();
  });

  it('has a desktop and a touch phone viewport', () => {
    expect(VIEWPORTS.desktop.viewport).toEqual({ width: 1280, height: 800 });
    expect(VIEWPORTS.phone).toMatchObject({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    expect(VIEWPORTS.phone.userAgent).toMatch(/Mobile/);
  });
});

describe('axe violations', () => {
  const violation = (id: string, impact: Result['impact']): Result =>
    ({
      id,
      impact,
      help: `${id} help`,
      description: '',
      helpUrl: '',
      tags: [],
      nodes: [{ target: ['#a'] }, { target: ['main', '.b'] }],
    }) as unknown as Result;

  it('fails only on serious and critical', () => {
    const all = [
      violation('color-contrast', 'serious'),
      violation('region', 'moderate'),
      violation('label', 'critical'),
      violation('x', 'minor'),
      violation('y', null),
    ];
    expect(blockingViolations(all).map((v) => v.id)).toEqual(['color-contrast', 'label']);
  });

  it('describes each violation with its elements', () => {
    expect(describeViolations([violation('label', 'critical')])).toBe('critical label: label help (2× e.g. #a, main .b)');
  });
});
