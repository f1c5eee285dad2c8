import { copyServerIp, filterAlerts, searchServers } from './list-go-commands';
import { clearListFilters, filterList } from './filter-commands';
import { searchList, setPageSize, sortList, viewCards, viewTable } from './view-commands';

/** List-view actions as commands (issue 13): card/table switch, search, page size, sort, alert filters, copy IP. */
export const listCommands = [viewTable, viewCards, searchList, filterList, clearListFilters, setPageSize, sortList, searchServers, filterAlerts, copyServerIp] as const;
