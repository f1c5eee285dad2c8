#!/usr/bin/env node
// The `opsdeck` command: runs the compiled server (`npm run build`; the packed package ships it).
process.setSourceMapsEnabled(true);
let cli;
try {
  cli = await import('../build/server/cli.js');
} catch (err) {
  if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !String(err.message).includes('build/server/cli.js')) throw err;
  console.error('opsdeck: the compiled server is missing: run `npm run build` (or `npm start`) in the source checkout first.');
  process.exit(1);
}
const code = await cli.runCli(process.argv.slice(2));
if (code !== 0) process.exit(code);
