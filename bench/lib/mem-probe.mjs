/**
 * Where a process's memory goes, for the benchmarks (`--mem-probe`): loaded with
 * `node --import ./bench/lib/mem-probe.mjs`, it runs in the main thread and, because worker
 * threads inherit execArgv, in every worker thread too. Every MEM_PROBE_EVERY_MS (5 s) each
 * thread appends one JSON line to MEM_PROBE_FILE: its own V8 heap (process.memoryUsage() is per
 * isolate for heap and external), and the byte size of every WebAssembly memory created in it
 * (PGlite's Postgres lives in one, which only ever grows). With MEM_PROBE_SNAPSHOT_AFTER_MS,
 * each thread also writes one heap snapshot beside the file that long after it starts (a pause
 * of seconds: for finding out, not for measuring). Otherwise nothing here changes what the
 * process does; it only reads.
 *
 * Plain JavaScript: it loads before tsx.
 */
import { appendFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { getHeapStatistics, writeHeapSnapshot } from 'node:v8';
import { isMainThread, threadId } from 'node:worker_threads';

const file = process.env.MEM_PROBE_FILE;
if (file) {
  const memories = [];
  const keep = (m) => {
    if (m instanceof WebAssembly.Memory && !memories.includes(m)) memories.push(m);
  };
  const fromInstance = (instance) => {
    for (const v of Object.values(instance?.exports ?? {})) keep(v);
  };
  const NativeMemory = WebAssembly.Memory;
  WebAssembly.Memory = new Proxy(NativeMemory, {
    construct(target, args) {
      const m = new target(...args);
      keep(m);
      return m;
    },
  });
  const instantiate = WebAssembly.instantiate;
  WebAssembly.instantiate = async (...args) => {
    const r = await instantiate.apply(WebAssembly, args);
    fromInstance(r instanceof WebAssembly.Instance ? r : r.instance);
    return r;
  };
  const instantiateStreaming = WebAssembly.instantiateStreaming;
  if (instantiateStreaming) {
    WebAssembly.instantiateStreaming = async (...args) => {
      const r = await instantiateStreaming.apply(WebAssembly, args);
      fromInstance(r.instance);
      return r;
    };
  }
  const every = Number(process.env.MEM_PROBE_EVERY_MS ?? 5000);
  const MB = 1024 * 1024;
  const round = (n) => Math.round((n / MB) * 10) / 10;
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    const h = getHeapStatistics();
    const line = {
      t: Date.now(),
      thread: isMainThread ? 'main' : `worker-${threadId}`,
      rss: round(m.rss),
      heapTotal: round(m.heapTotal),
      heapUsed: round(m.heapUsed),
      external: round(m.external),
      arrayBuffers: round(m.arrayBuffers),
      mallocedMemory: round(h.malloced_memory),
      wasm: memories.map((mem) => round(mem.buffer.byteLength)),
    };
    try {
      appendFileSync(file, `${JSON.stringify(line)}\n`);
    } catch {
      // the bench removed its folder: nothing to report to any more
    }
  }, every);
  timer.unref();
  // MEM_PROBE_SNAPSHOT_AFTER_MS: each thread writes one heap snapshot beside the file, once.
  const snapshotAfter = Number(process.env.MEM_PROBE_SNAPSHOT_AFTER_MS ?? 0);
  if (snapshotAfter > 0) {
    setTimeout(() => {
      writeHeapSnapshot(join(dirname(file), `heap-${isMainThread ? 'main' : `worker-${threadId}`}.heapsnapshot`));
    }, snapshotAfter).unref();
  }
}
