import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { CODE, FaceAError } from './envelope.js';

/** One uploaded file, held in memory (bounded by `maxFileBytes`). */
export interface UploadedFile {
  filename: string;
  mimeType: string;
  data: Buffer;
}

/** The input of one call: text fields by name (first value wins) and uploaded files by field name. */
export interface FormInput {
  fields: Record<string, string>;
  files: Record<string, UploadedFile>;
}

export interface FormLimits {
  /** Largest text field (and largest urlencoded or JSON body). */
  maxFieldBytes: number;
  /** Largest uploaded file. */
  maxFileBytes: number;
  /** 0 when the call takes no file: an upload is refused before it is read. */
  maxFiles: number;
  /** Most fields one body may carry. */
  maxFields: number;
}

/**
 * A body the server stopped reading (over a limit, or malformed): the answer must close the
 * connection, since the rest of the body was never read.
 */
export class UnreadBodyError extends FaceAError {
  constructor(msg: string) {
    super(CODE.badInput, msg);
    this.name = 'UnreadBodyError';
  }
}

const kib = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${Math.floor(bytes / 1024 / 1024)} MB` : `${Math.floor(bytes / 1024)} KB`;

/**
 * A call's input: the query string of the URL, overlaid for POST by the body — multipart/form-data
 * (what the web client sends) or application/x-www-form-urlencoded, both read by busboy with field,
 * file and size limits; application/json (an object of scalars) is accepted too. Any other body is
 * refused with a Chinese message.
 */
export async function readForm(request: IncomingMessage, query: string, limits: FormLimits): Promise<FormInput> {
  const input: FormInput = { fields: {}, files: {} };
  for (const [name, value] of new URLSearchParams(query)) {
    if (!(name in input.fields)) input.fields[name] = value.trim();
  }
  if (request.method !== 'POST') return input;
  const type = (request.headers['content-type'] ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
  if (type === 'multipart/form-data' || type === 'application/x-www-form-urlencoded') {
    const body = await readBusboy(request, limits);
    // Body fields win over the query string.
    return { fields: { ...input.fields, ...body.fields }, files: body.files };
  }
  if (type === 'application/json') {
    return { fields: { ...input.fields, ...(await readJsonFields(request, limits.maxFieldBytes)) }, files: {} };
  }
  const declared = Number(request.headers['content-length'] ?? '0');
  if (type === '' && declared === 0 && request.headers['transfer-encoding'] === undefined) return input;
  throw new UnreadBodyError('不支持的请求格式，请以 form-data 提交');
}

function readBusboy(request: IncomingMessage, limits: FormLimits): Promise<FormInput> {
  return new Promise((resolve, reject) => {
    const input: FormInput = { fields: {}, files: {} };
    let failed = false;
    const fail = (msg: string) => {
      if (failed) return;
      failed = true;
      request.unpipe(parser);
      reject(new UnreadBodyError(msg));
    };
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: request.headers,
        defParamCharset: 'utf8',
        limits: {
          fieldNameSize: 100,
          fieldSize: limits.maxFieldBytes,
          fields: limits.maxFields,
          files: limits.maxFiles,
          fileSize: limits.maxFileBytes,
          parts: limits.maxFields + limits.maxFiles,
        },
      });
    } catch {
      // Missing or malformed multipart boundary.
      reject(new UnreadBodyError('表单格式不正确'));
      return;
    }
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(`参数 ${name.slice(0, 50)} 过长（最大 ${kib(limits.maxFieldBytes)}）`);
      if (info.nameTruncated) return fail('参数名过长');
      if (!(name in input.fields)) input.fields[name] = value.trim();
    });
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => {
        fail(`上传文件过大（最大 ${kib(limits.maxFileBytes)}）`);
        stream.resume();
      });
      stream.on('end', () => {
        if (failed || name in input.files) return;
        input.files[name] = { filename: info.filename ?? '', mimeType: info.mimeType, data: Buffer.concat(chunks) };
      });
    });
    parser.on('filesLimit', () => fail(limits.maxFiles === 0 ? '该接口不接受文件上传' : `最多上传 ${limits.maxFiles} 个文件`));
    parser.on('fieldsLimit', () => fail(`参数过多（最多 ${limits.maxFields} 个）`));
    parser.on('partsLimit', () => fail(`参数过多（最多 ${limits.maxFields} 个）`));
    parser.on('error', () => fail('表单格式不正确'));
    parser.on('close', () => {
      if (!failed) resolve(input);
    });
    request.on('error', () => fail('请求未完整送达'));
    request.pipe(parser);
  });
}

async function readJsonFields(request: IncomingMessage, maxBytes: number): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new UnreadBodyError(`请求内容过大（最大 ${kib(maxBytes)}）`);
    chunks.push(chunk as Buffer);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new FaceAError(CODE.badInput, '请求内容不是有效的 JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new FaceAError(CODE.badInput, '请求内容应为 JSON 对象');
  }
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value === 'string') fields[name] = value.trim();
    else if (typeof value === 'number' || typeof value === 'boolean') fields[name] = String(value);
  }
  return fields;
}
