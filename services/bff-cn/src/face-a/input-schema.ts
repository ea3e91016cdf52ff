import { checkAddress, type CheckedAddress } from '@ipdata/lookup-engine/client';
import { badInput } from './envelope.js';
import type { FormInput, UploadedFile } from './form-body.js';

/**
 * A call's input fields, declared once as plain data: the dispatcher validates with it (Chinese
 * messages), and the contract test checks that openapi/face-a.yaml documents the same fields,
 * required ones and kinds, so the document and the validation cannot drift.
 */
export type FieldSpec =
  | { kind: 'string'; label: string; required: boolean; maxLength: number; pattern?: RegExp; patternMsg?: string }
  | { kind: 'ip'; label: string; required: boolean }
  | { kind: 'phone'; label: string; required: boolean }
  | { kind: 'int'; label: string; required: boolean; min: number; max: number; default?: number }
  | { kind: 'flag'; label: string; required: false }
  | { kind: 'enum'; label: string; required: boolean; values: readonly string[] }
  | { kind: 'file'; label: string; required: boolean };

export type InputSchema = Readonly<Record<string, FieldSpec>>;

type ValueOf<F extends FieldSpec> = F extends { kind: 'ip' }
  ? CheckedAddress
  : F extends { kind: 'int' }
    ? number
    : F extends { kind: 'flag' }
      ? boolean
      : F extends { kind: 'file' }
        ? UploadedFile
        : F extends { kind: 'enum'; values: readonly (infer V)[] }
          ? V
          : string;

/** The validated input: required fields present, optional ones possibly undefined (ints take their default). */
export type InputOf<S extends InputSchema> = {
  [K in keyof S]: S[K] extends { required: true } | { kind: 'int'; default: number } | { kind: 'flag' }
    ? ValueOf<S[K]>
    : ValueOf<S[K]> | undefined;
};

/** A mainland China mobile number: 11 digits starting with 1 (auth checks the number ranges). */
const PHONE = /^1[3-9]\d{9}$/;
const TRUE = new Set(['1', 'true', 'on', 'yes']);
const FALSE = new Set(['', '0', 'false', 'off', 'no']);

/** Validates a form against a schema; the first problem is answered as code 400 with its Chinese text. */
export function validateInput<S extends InputSchema>(schema: S, form: FormInput): InputOf<S> {
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(schema)) {
    if (spec.kind === 'file') {
      const file = form.files[name];
      if (file === undefined && spec.required) throw badInput(`请上传${spec.label}`);
      out[name] = file;
      continue;
    }
    const text = form.fields[name];
    if (text === undefined || text === '') {
      if (spec.required) throw badInput(`请输入${spec.label}`);
      if (spec.kind === 'int') out[name] = spec.default;
      if (spec.kind === 'flag') out[name] = false;
      continue;
    }
    out[name] = fieldValue(spec, text);
  }
  return out as InputOf<S>;
}

function fieldValue(spec: Exclude<FieldSpec, { kind: 'file' }>, text: string): unknown {
  switch (spec.kind) {
    case 'string':
      if (text.length > spec.maxLength) throw badInput(`${spec.label}过长（最多 ${spec.maxLength} 个字符）`);
      if (spec.pattern && !spec.pattern.test(text)) throw badInput(spec.patternMsg ?? `${spec.label}格式不正确`);
      return text;
    case 'ip': {
      const address = text.length <= 100 ? checkAddress(text) : undefined;
      if (address === undefined) throw badInput(`请输入正确的${spec.label}`);
      return address;
    }
    case 'phone':
      if (!PHONE.test(text)) throw badInput('请输入正确的手机号');
      return text;
    case 'int': {
      const value = /^-?\d{1,9}$/.test(text) ? Number(text) : NaN;
      if (!Number.isInteger(value) || value < spec.min || value > spec.max) {
        throw badInput(`${spec.label}应为 ${spec.min} 到 ${spec.max} 之间的整数`);
      }
      return value;
    }
    case 'flag': {
      const lower = text.toLowerCase();
      if (TRUE.has(lower)) return true;
      if (FALSE.has(lower)) return false;
      throw badInput(`${spec.label}应为 0 或 1`);
    }
    case 'enum':
      if (!spec.values.includes(text)) throw badInput(`${spec.label}只能是 ${spec.values.join('、')}`);
      return text;
  }
}
