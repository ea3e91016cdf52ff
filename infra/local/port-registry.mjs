// Reads the port registry infra/ports.json for the shell scripts (node is there wherever the
// services run; jq need not be):
//
//   node infra/local/port-registry.mjs services        one line per service services.sh runs, in
//                                                      start order: name|ready port
//   node infra/local/port-registry.mjs urls [name ...] the addresses `make up` prints: the stack
//                                                      (KAFKA_PORT, ... override), then the services
//                                                      named (all that services.sh runs by default)
import { readFileSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';

const print = (line) => process.stdout.write(`${line}\n`);

const registry = JSON.parse(readFileSync(new URL('../ports.json', import.meta.url), 'utf8'));

/** services.sh runs the mail sink and every service folder with an HTTP (health) port. */
function runByServicesScript(service) {
  return service.name === 'mail-sink' || (service.path.startsWith('services/') && service.ports.http !== undefined);
}

/** The port services.sh waits on: /readyz on the HTTP port, or the SMTP port of the mail sink. */
function readyPort(service) {
  return service.ports.http ?? service.ports.smtp;
}

/** "sandboxCheckout" -> "sandbox checkout". */
function words(key) {
  return key.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`);
}

const STACK_URL = {
  kafka: (port) => `127.0.0.1:${port}`,
  mongo: (port) => `mongodb://127.0.0.1:${port}   (FerretDB)`,
  redis: (port) => `redis://127.0.0.1:${port}`,
};
const STACK_LABEL = { kafka: 'Kafka', mongo: 'MongoDB', redis: 'Redis' };

function serviceAddresses(service) {
  const parts = [];
  for (const [key, port] of Object.entries(service.ports)) {
    if (key === 'grpc') parts.push(`gRPC 127.0.0.1:${port}`);
    else if (key === 'http') parts.push(`health http://127.0.0.1:${port}/readyz`);
    else if (key === 'smtp') parts.push(`smtp://127.0.0.1:${port}`);
    else parts.push(`${words(key)} http://127.0.0.1:${port}`);
  }
  if (service.kind === 'BFF') parts.unshift(`http://127.0.0.1:${service.ports.http}`);
  if (service.note !== undefined) parts.push(`(${service.note})`);
  return parts.join('   ');
}

const [command, ...names] = process.argv.slice(2);
const run = registry.services.filter(runByServicesScript);
if (command === 'services') {
  for (const service of run) print(`${service.name}|${readyPort(service)}`);
} else if (command === 'urls') {
  const chosen = names.length > 0 ? registry.services.filter((service) => names.includes(service.name)) : run;
  const width = Math.max(...[...chosen.map((service) => service.name), 'MongoDB'].map((name) => name.length)) + 2;
  for (const part of registry.stack) {
    const port = process.env[part.env] || part.port;
    print(`  ${STACK_LABEL[part.name].padEnd(width)}${STACK_URL[part.name](port)}`);
  }
  for (const service of chosen) print(`  ${service.name.padEnd(width)}${serviceAddresses(service)}`);
} else {
  process.stderr.write('usage: node infra/local/port-registry.mjs <services|urls [service ...]>\n');
  process.exit(2);
}
