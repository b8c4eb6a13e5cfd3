// The FLOOR of `NAMECARD_TOKEN=… namecard set` (bench/cli.ts): a bare Node script that sends
// the same single POST as the CLI with a card token, to /rest/v1/rpc/namecard_token_set (the
// API's base URL in argv[2], the entry's type and end, epoch ms, in argv[3] and argv[4]; the
// anon key and the token from SUPABASE_ANON_KEY and NAMECARD_TOKEN, as the CLI reads them, so
// the secret is in no process list), reads the answer and prints it. Nothing else loads.
import { request } from 'node:http';

const [, , base = '', type = 'photo', end = '0'] = process.argv;
const key = process.env.SUPABASE_ANON_KEY ?? '';
const body = JSON.stringify({
  token: process.env.NAMECARD_TOKEN ?? '',
  type,
  stamp_start: null,
  stamp_end: Number(end),
});
const post = request(
  `${base.replace(/\/+$/, '')}/rest/v1/rpc/namecard_token_set`,
  {
    method: 'POST',
    headers: {
      apikey: key,
      Authorization: `Bearer ${key}`,
      'Content-Type': 'application/json',
      'Content-Profile': 'public',
    },
  },
  (response) => {
    let answer = '';
    response.setEncoding('utf8');
    response.on('data', (chunk) => (answer += chunk));
    response.on('end', () => {
      process.stdout.write(`${answer}\n`);
      if (response.statusCode !== 200) process.exitCode = 1;
    });
  },
);
post.end(body);
