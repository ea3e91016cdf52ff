import { readFile } from 'node:fs/promises';
import openapiTS, { astToString } from 'openapi-typescript';

/**
 * TypeScript types of every schema, path and operation of an OpenAPI document (the BFF's own,
 * the one its contract test checks), with a header naming the command that regenerates them.
 */
export async function generateOpenApiTypes(documentFile: string, source: string, command: string): Promise<string> {
  const document = await readFile(documentFile, 'utf8');
  const ast = await openapiTS(document, { exportType: true, alphabetize: true });
  return (
    `// Generated from ${source} by \`${command}\`.\n` +
    '// Do not edit: change the OpenAPI document and regenerate (a unit test fails when they differ).\n\n' +
    astToString(ast)
  );
}
