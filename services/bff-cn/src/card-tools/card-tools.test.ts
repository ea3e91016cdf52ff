import { beforeAll, describe, expect, it } from 'vitest';

import { type CardTools, loadCardTools } from './index.js';

describe('loadCardTools', () => {
  let tools: CardTools;
  beforeAll(async () => {
    tools = await loadCardTools();
  });

  it('loads the installed data and answers the three checks', () => {
    expect(tools.checkIdCard('11010519491231002X', new Date('2024-06-01T04:00:00Z'))).toMatchObject({
      valid: true,
      region: { province: '北京市', county: '朝阳区' },
    });
    expect(tools.checkPhone('+86 138 0013 8000')).toMatchObject({ valid: true, carrier: '中国移动' });
    expect(tools.checkBankCard('6200 0000 0000 0005')).toMatchObject({ valid: true, scheme: { code: 'unionpay' } });
  });
});
