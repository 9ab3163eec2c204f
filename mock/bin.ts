// The `linkgate` executable as published (dist/cli.js): turns on Node's compile cache first, then loads the CLI, so
// every start after the first reads the CLI's compiled code from the cache instead of compiling ~450 KB again (issue
// 23; README Decisions, "The CLI's compile cache"). Static imports would load before this line runs; hence import().
import module from 'node:module';

// Node's own default place (NODE_COMPILE_CACHE, else <tmpdir>/node-compile-cache); NODE_DISABLE_COMPILE_CACHE=1 turns
// it off. Node 22.0 has no compile cache, and a cache that cannot be written only costs the attempt.
module.enableCompileCache?.();
await import('./cli.js');
