import inspector from 'node:inspector';
import fs from 'node:fs';
const dir = process.env.XX_PROF_DIR;
const s = new inspector.Session();
s.connect();
s.post('Profiler.enable', () => s.post('Profiler.setSamplingInterval', { interval: 200 }, () => s.post('Profiler.start')));
let done = false;
const stop = () => {
  if (done) return;
  done = true;
  s.post('Profiler.stop', (err, { profile }) => {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(`${dir}/${process.pid}.cpuprofile`, JSON.stringify(profile));
  });
};
process.prependListener('SIGTERM', stop);
process.on('exit', stop);
