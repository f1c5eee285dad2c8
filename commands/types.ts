export type { CommandSource } from '../server/contract/command-history';
