// Preloaded (`node --import`) into each process `npm run bench -- replay` times: at exit, the peak resident set
// size goes to the file named by TENACE_BENCH_RSS, so the three processes are measured alike.
import { writeFileSync } from 'node:fs';

const out = process.env.TENACE_BENCH_RSS;
if (out) process.on('exit', () => writeFileSync(out, String(process.resourceUsage().maxRSS * 1024)));
