import { eq } from 'drizzle-orm';
import type { ListResult } from '../contract/common';
import type { ServiceRecord } from '../contract/servers';
import type { Db } from '../db/client';
import { buildListQuery, listPage, withoutParallelWorkers, type ListDef, type ListQueryInput, type ListSource } from '../db/list-query';
import { rowCount } from '../db/row-counts';
import { servers, services, shortGrams } from '../db/schema';
import { hostnameGrams } from './resource';

type ServiceRow = typeof services.$inferSelect;
type ServiceListRow = { service: ServiceRow; hostname: string; ipaddress: string };

function serviceToApi(row: ServiceRow, server: { hostname: string; ipaddress: string }): ServiceRecord {
  return {
    _id: row.id,
    serverId: row.serverId,
    server,
    service_name: row.serviceName,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** SPEC §7 prometheus/get-services: filters serverId, name contains, status; sort createdAt desc. */
const servicesList: ListDef = {
  filterable: {
    serverId: { column: services.serverId, ops: ['eq', 'in'], kind: 'uuid' },
    name: { column: services.serviceName, lower: services.serviceNameLc as never, grams: shortGrams(services.serviceNameLc as never), ops: ['contains', 'eq'] },
    status: { column: services.status, ops: ['eq', 'in'] },
    hostname: { column: servers.hostname, lower: servers.hostnameLc as never, grams: hostnameGrams, ops: ['contains', 'eq'] },
  },
  sortable: { createdAt: services.createdAt, updatedAt: services.updatedAt, name: services.serviceName, status: services.status, hostname: servers.hostname },
  search: [
    { lower: services.serviceNameLc as never, grams: shortGrams(services.serviceNameLc as never) },
    { lower: servers.hostnameLc as never, grams: hostnameGrams },
  ],
  defaultSort: { by: 'createdAt', direction: 'desc' },
};

/** Service records with their server's hostname and IP (a join): the list's rows. */
const servicesSource: ListSource<ServiceListRow> = {
  from: (d, fields) => d.select(fields as never).from(services).innerJoin(servers, eq(servers.id, services.serverId)),
  rows: (d) => d.select({ service: services, hostname: servers.hostname, ipaddress: servers.ipaddress }).from(services).innerJoin(servers, eq(servers.id, services.serverId)),
  idOf: (row) => row.service.id,
  id: services.id,
  ties: [
    { key: services.serviceName, direction: 'asc' },
    { key: services.id, direction: 'asc' },
  ],
  // Every service has its server (a cascading foreign key): the join counts the table.
  total: (d) => rowCount(d, 'services'),
};

/** SPEC §7 prometheus/get-services: a page of service records with their server's hostname and IP. */
export async function listServices(db: Db, input: ListQueryInput): Promise<ListResult<ServiceRecord>['result']> {
  const query = buildListQuery(servicesList, input);
  const page = await withoutParallelWorkers(db, (d) => listPage(d, servicesSource, query));
  const data = page.rows.map((r) => serviceToApi(r.service, { hostname: r.hostname, ipaddress: r.ipaddress }));
  return { data, count: page.count, ...(page.countEstimated ? { countEstimated: true as const } : {}) };
}
