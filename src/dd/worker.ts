// The double-dummy solver's child process: it loads libdds and answers the parent's requests over the IPC channel,
// one at a time. Only this process maps the library, so its crash, hang or segfault at exit (DDS's threads are torn
// down badly; seen even after FreeMemory) ends this process and never its parent.
import { type Dds, loadDds } from './dds.js';
import type { WorkerReply, WorkerRequest } from './protocol.js';

function send(msg: WorkerReply): void {
  process.send?.(msg);
}

/** End without running the library's exit-time destructors, which segfault. */
function quit(): never {
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable');
}

let dds: Dds | undefined;
try {
  dds = loadDds();
  send({ ready: true, version: dds.version });
} catch (e) {
  send({ ready: false, error: (e as Error).message });
}

process.on('message', (raw: unknown) => {
  const req = raw as WorkerRequest;
  if (!dds) {
    send({ id: req.id, ok: false, error: 'the solver is not loaded' });
    return;
  }
  try {
    const value = req.op === 'table' ? dds.table(req.hands)
      : req.op === 'par' ? dds.par(req.table, req.vulnerable, req.dealer)
        : dds.solve(req.position);
    send({ id: req.id, ok: true, value });
  } catch (e) {
    send({ id: req.id, ok: false, error: (e as Error).message });
  }
});
// The parent went away (closed, or died): nothing is left to answer.
process.on('disconnect', quit);
