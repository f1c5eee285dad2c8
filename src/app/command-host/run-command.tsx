// The runner's context is declared with the kit (src/components/ui/command-runner.ts), whose
// command-bound pieces use it; the command host provides it, and screens take it from here.
export { CommandRunnerContext, useCommandRunner, type CommandRunner, type RunUiOptions } from '../../components/ui/command-runner';
