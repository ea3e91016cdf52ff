// CPU profile of a process started by someone else (the benchmark's bff-en, which the shared test
// system launches with fixed node flags): loaded with NODE_OPTIONS="--import <this file>", since
// Node 20 refuses --cpu-prof in NODE_OPTIONS. The first SIGUSR2 starts the profiler (after the
// warm-up: start-up and module loading stay out), the second stops it and writes
// BENCH_CPU_PROFILE_FILE (a .cpuprofile, as --cpu-prof writes), renamed into place so a reader
// never sees half a file. Plain JavaScript: it runs before tsx.
import { Session } from 'node:inspector';
import { renameSync, writeFileSync } from 'node:fs';
import process from 'node:process';

const file = process.env['BENCH_CPU_PROFILE_FILE'];
if (file) {
  const session = new Session();
  session.connect();
  let running = false;
  process.on('SIGUSR2', () => {
    if (!running) {
      running = true;
      // 100 µs between samples (V8's default is 1 ms): enough samples in a 10 s load.
      session.post('Profiler.enable', () =>
        session.post('Profiler.setSamplingInterval', { interval: 100 }, () => session.post('Profiler.start')),
      );
      return;
    }
    session.post('Profiler.stop', (error, result) => {
      if (error) return;
      writeFileSync(`${file}.tmp`, JSON.stringify(result.profile));
      renameSync(`${file}.tmp`, file);
    });
  });
}
