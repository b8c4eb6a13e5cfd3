// Preloaded into a CLI run by tests (`node --import`): writes the process's peak resident
// memory in KiB to the file named by NAMECARD_TEST_RSS_FILE when it exits. It reads Linux's
// VmHWM (the high-water mark of this process's own memory) rather than
// process.resourceUsage().maxRSS, which after fork and exec still holds the parent's peak: a
// CLI started from a 300 MB test worker would report 300 MB.
import { readFileSync, writeFileSync } from 'node:fs';

process.on('exit', () => {
  const file = process.env.NAMECARD_TEST_RSS_FILE;
  if (!file) return;
  const status = readFileSync('/proc/self/status', 'utf8');
  const kib = /^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1];
  writeFileSync(file, kib ?? 'unknown');
});
