// The FLOOR of `namecard status` (bench/cli.ts): a bare Node script that sends the same GET of
// a card's namecard_status (the URL in argv[2], the card's slug and the anon key in it as
// `card` and `apikey`, no custom header, as `namecard status` sends it), reads the answer and
// prints it. Nothing else loads: no project code, no package, no settings.
import { request } from 'node:http';

const url = process.argv[2] ?? '';
request(url, (response) => {
  let body = '';
  response.setEncoding('utf8');
  response.on('data', (chunk) => (body += chunk));
  response.on('end', () => {
    const rows = JSON.parse(body);
    process.stdout.write(`${JSON.stringify(rows[0] ?? null)}\n`);
    if (response.statusCode !== 200) process.exitCode = 1;
  });
}).end();
