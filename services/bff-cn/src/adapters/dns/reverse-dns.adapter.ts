import type { DnsResolver } from '@ipdata/common/dns';
import type { ReverseDns } from '../../report/report.ports.js';

/** ReverseDns over services/common's resolver: no records → [], a timeout or failure rejects. */
export class CommonReverseDns implements ReverseDns {
  constructor(private readonly resolver: Pick<DnsResolver, 'reverse'>) {}

  async reverse(ip: string): Promise<string[]> {
    const { status, names } = await this.resolver.reverse(ip);
    if (status === 'timeout' || status === 'failed') throw new Error(`reverse DNS of ${ip}: ${status}`);
    return [...names];
  }
}
