import { describe, expect, it } from 'vitest';
import { FaceAError } from './envelope.js';
import { validateInput, type InputSchema } from './input-schema.js';

const schema = {
  ip: { kind: 'ip', label: 'IP 地址', required: true },
  phone: { kind: 'phone', label: '手机号', required: false },
  page: { kind: 'int', label: '页码', required: false, min: 1, max: 100, default: 1 },
  remember: { kind: 'flag', label: '记住我', required: false },
  type: { kind: 'enum', label: '类型', required: false, values: ['login', 'register'] },
  name: { kind: 'string', label: '名称', required: false, maxLength: 5 },
  file: { kind: 'file', label: '文件', required: false },
} as const satisfies InputSchema;

function refusal(fields: Record<string, string>): string {
  try {
    validateInput(schema, { fields, files: {} });
  } catch (error) {
    expect(error).toBeInstanceOf(FaceAError);
    expect((error as FaceAError).code).toBe(400);
    return (error as FaceAError).msg;
  }
  throw new Error('accepted');
}

describe('input validation', () => {
  it('gives typed values: canonical address, defaults, flags, enums', () => {
    const input = validateInput(schema, {
      fields: { ip: '::ffff:8.8.8.8', remember: '1', type: 'login', name: '张三' },
      files: {},
    });
    expect(input.ip).toMatchObject({ family: 4, text: '8.8.8.8' });
    expect(input.page).toBe(1);
    expect(input.remember).toBe(true);
    expect(input.type).toBe('login');
    expect(input.name).toBe('张三');
    expect(input.phone).toBeUndefined();
    expect(input.file).toBeUndefined();
  });

  it('refuses every bad field with a Chinese message naming it', () => {
    expect(refusal({})).toBe('请输入IP 地址');
    expect(refusal({ ip: '999.1.1.1' })).toBe('请输入正确的IP 地址');
    expect(refusal({ ip: '010.1.1.1' })).toBe('请输入正确的IP 地址');
    expect(refusal({ ip: '8.8.8.8', phone: '12345' })).toBe('请输入正确的手机号');
    expect(refusal({ ip: '8.8.8.8', page: '0' })).toBe('页码应为 1 到 100 之间的整数');
    expect(refusal({ ip: '8.8.8.8', page: '1e3' })).toBe('页码应为 1 到 100 之间的整数');
    expect(refusal({ ip: '8.8.8.8', remember: 'maybe' })).toBe('记住我应为 0 或 1');
    expect(refusal({ ip: '8.8.8.8', type: 'admin' })).toBe('类型只能是 login、register');
    expect(refusal({ ip: '8.8.8.8', name: '123456' })).toBe('名称过长（最多 5 个字符）');
  });

  it('requires files that the schema requires', () => {
    const withFile = { file: { kind: 'file', label: '文件', required: true } } as const satisfies InputSchema;
    expect(() => validateInput(withFile, { fields: {}, files: {} })).toThrow('请上传文件');
    const data = Buffer.from('1.1.1.1\n');
    expect(
      validateInput(withFile, { fields: {}, files: { file: { filename: 'a.txt', mimeType: 'text/plain', data } } }).file.data,
    ).toBe(data);
  });
});
