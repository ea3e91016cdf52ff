/**
 * Development mail sink for `make up`: an SMTP server on 127.0.0.1:2525 (MAIL_SINK_PORT) that
 * accepts every message, stores it as var/stack/mail/<time>-<n>.eml and logs the links it
 * contains, so sign-up confirmation and password-reset links can be followed locally. Never used
 * outside development; tests run their own smtp-server.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

const port = Number(process.env['MAIL_SINK_PORT'] ?? 2525);
const folder = process.env['MAIL_SINK_DIR'] ?? join(process.cwd(), 'mail');
mkdirSync(folder, { recursive: true });
let count = 0;

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const message = Buffer.concat(chunks).toString('utf8');
      const file = join(folder, `${new Date().toISOString().replace(/[:.]/g, '-')}-${++count}.eml`);
      writeFileSync(file, message);
      const to = session.envelope.rcptTo.map((address) => address.address).join(', ');
      // Undo quoted-printable (soft line breaks, =XX escapes) so the logged links can be clicked.
      const text = message
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      const links = [...new Set(text.match(/https?:\/\/[^\s"'<>]+/g) ?? [])];
      console.log(
        JSON.stringify({
          level: 'info',
          time: new Date().toISOString(),
          service: 'mail-sink',
          msg: 'mail received',
          to,
          file,
          links,
        }),
      );
      callback();
    });
  },
});
server.listen(port, '127.0.0.1', () => console.log(`mail sink listening on 127.0.0.1:${port}, storing mail in ${folder}`));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
