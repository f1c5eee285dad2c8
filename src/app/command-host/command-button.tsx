// The button bound to a command is a piece of the kit (src/components/ui/command-button.tsx),
// which RefreshButton builds on; screens take it from the command host as they take the runner.
export { CommandButton, type CommandButtonProps } from '../../components/ui/command-button';
