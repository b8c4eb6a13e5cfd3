// The FLOOR of `namecard status` (bench/cli.ts): a bare Node script that sends the same
// single GET (the URL template in argv[2], `NOW` replaced by the epoch ms; the anon key from
// SUPABASE_ANON_KEY as `apikey` and bearer, as `namecard status` sends them), reads the
// answer and prints it. Nothing else loads: no project code, no package, no settings.
import { request } from 'node:http';

const key = process.env.SUPABASE_ANON_KEY ?? '';
const url = (process.argv[2] ?? '').replace('NOW', String(Date.now()));
const headers = { apikey: key, Authorization: `Bearer ${key}`, Accept: 'application/json' };
request(url, { headers }, (response) => {
  let body = '';
  response.setEncoding('utf8');
  response.on('data', (chunk) => (body += chunk));
  response.on('end', () => {
    const rows = JSON.parse(body);
    process.stdout.write(`${JSON.stringify(rows[0] ?? null)}\n`);
    if (response.statusCode !== 200) process.exitCode = 1;
  });
}).end();
