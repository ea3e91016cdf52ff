import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// In a child process with V8's natives syntax, which the test runner cannot enable for itself.
const probe = `
class Verbatim extends String {}
globalThis.keep = Verbatim;
const before = %HasFastProperties(String.prototype);
const { makeStringPrototypeFast } = await import(${JSON.stringify(fileURLToPath(new URL('./fast-string-prototype.ts', import.meta.url)))});
makeStringPrototypeFast();
console.log(JSON.stringify({ before, after: %HasFastProperties(String.prototype), charCode: 'a.b'.charCodeAt(1) }));
`;

describe('makeStringPrototypeFast', () => {
  it('turns String.prototype fast again after a module subclassed String', () => {
    const output = execFileSync(
      process.execPath,
      ['--allow-natives-syntax', '--import', 'tsx', '--input-type=module', '-e', probe],
      {
        encoding: 'utf8',
      },
    );
    // before: the subclass left it in dictionary mode (the slow parsing this module exists for).
    // Should a Node release keep it fast (before: true), the workaround is no longer needed.
    expect(JSON.parse(output.trim().split('\n').at(-1) ?? '')).toEqual({ before: false, after: true, charCode: 46 });
  });
});
