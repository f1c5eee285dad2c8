import { z } from 'zod';
import { agentInstalledSchema, agentReportSchema, apiKeyInfoSchema, CLI_VERSION, createApiKeySchema, createdApiKeySchema, portAccessSchema, revokedApiKeySchema, validatedApiKeySchema } from './agent';
import {
  ackAlertSchema,
  alertConfigSchema,
  alertDetailSchema,
  alertSchema,
  alertSortable,
  createNotificationGroupSchema,
  FIRING_SORT,
  notificationGroupSchema,
  unackAlertSchema,
  updateAlertConfigSchema,
  updateAlertSchema,
  updateNotificationGroupSchema,
} from './alerts';
import { aliasNameSchema, aliasSchema, putAliasSchema } from './aliases';
import { amReceiveResultSchema, amWebhookSchema, integrationsStatusSchema, receiverTokenSchema } from './alertmanager';
import { channelInputSchema, channelTestResultSchema, channelUpdateSchema, deliveryLogEntrySchema, notificationChannelSchema, testGroupSchema } from './channels';
import {
  alertsSummaryResultSchema,
  cpuUsageResultSchema,
  diskUsageResultSchema,
  downServersResultSchema,
  memoryUsageResultSchema,
  nodesSummaryResultSchema,
  percentageQuerySchema,
  servicesDownResultSchema,
} from './analytics';
import { signinSchema, whoamiSchema } from './auth';
import { checkHistoryQuerySchema, checkHistorySchema, checkResultSchema, checkResultsQuerySchema, checkRunSchema, checkSchema, checkUptimeSchema, createCheckSchema, updateCheckSchema } from './checks';
import { commandHistoryEntrySchema, historyExportQuerySchema } from './command-history';
import { apiErrorBodySchema, listQuerySchema } from './common';
import { incidentReportQuerySchema, incidentReportSchema } from './incident-report';
import {
  createScheduleSchema,
  feedQuerySchema,
  feedUrlSchema,
  finalQuerySchema,
  finalScheduleSchema,
  importResultSchema,
  importScheduleSchema,
  layerInputSchema,
  layerUpdateSchema,
  myShiftSchema,
  overrideInputSchema,
  scheduleSchema,
  gapsQuerySchema,
  scheduleGapsSchema,
  swapInputSchema,
  updateScheduleSchema,
  whoQuerySchema,
  whoSchema,
} from './oncall';
import { monitoringAlertGroupsAnswerSchema, monitoringAlertGroupsSchema, monitoringHealthSchema } from './ops';
import { alertReachSchema, defaultGroupAnswerSchema, defaultGroupRequestSchema } from './reach';
import { endpoint, idsQuery, one, page, removedSchema, resource, type ApiRoute } from './endpoint';
import {
  createSilenceSchema,
  createWindowSchema,
  maintenanceWindowSchema,
  matchPreviewSchema,
  occurrenceSchema,
  occurrencesQuerySchema,
  silencePreviewRequestSchema,
  silenceSchema,
  updateSilenceSchema,
  updateWindowSchema,
  windowPreviewRequestSchema,
} from './routing';
import { chartDataSchema, chartQuerySchema, createServerSchema, monitoringConfigSchema, prometheusTargetGroupSchema, serverForecastsSchema, serverSchema, serverUpStatusSchema, serverUsageSchema, serviceRecordSchema, updateServerSchema } from './servers';
import {
  createStatusPageSchema,
  postedIncidentSchema,
  publicStatusSchema,
  statusPageSchema,
  statusPostInputSchema,
  statusResolveInputSchema,
  updateStatusPageSchema,
} from './status-pages';
import { searchQuerySchema, searchResultSchema } from './search';
import { createTokenSchema, personalTokenSchema } from './tokens';
import { contactMethodInputSchema, contactMethodSchema, contactTestResultSchema, notificationRuleInputSchema, notificationRuleSchema, notificationRulesSchema, verifyContactSchema } from './contact-methods';
import { createUserSchema, updateAccountSchema, updateUserSchema, userSchema } from './users';

export type { Access, ApiRoute, HttpMethod } from './endpoint';

const agentDownload = <const P extends string>(path: P, summary: string) => endpoint({ method: 'GET', path, summary, tag: 'Agent', access: 'public', produces: 'application/octet-stream' });

/**
 * Every HTTP endpoint of Opsdeck, by name, declared once from the zod schemas it parses with and
 * answers in (server/contract/endpoint.ts). The server serves each through its declaration, the
 * OpenAPI description is generated from it, and the web client calls it by name.
 */
export const endpoints = {
  // Probes and metrics
  'ops.health': endpoint({ method: 'GET', path: '/api/health', summary: 'Liveness: the process answers', tag: 'Operations', access: 'public' }),
  'ops.ready': endpoint({ method: 'GET', path: '/api/ready', summary: 'Readiness: database, migrations, monitoring, leader', tag: 'Operations', access: 'public' }),
  'ops.metrics': endpoint({ method: 'GET', path: '/metrics', summary: "Opsdeck's own Prometheus metrics", tag: 'Operations', access: 'public', produces: 'text/plain' }),
  'ops.openapi': endpoint({ method: 'GET', path: '/api/openapi.json', summary: 'This description of the API', tag: 'Operations', access: 'public' }),
  'monitoring.health': endpoint({ method: 'GET', path: '/api/monitoring/health', summary: 'Whether the monitoring backend answers and how fresh its figures are', tag: 'Operations', access: 'read', response: one(monitoringHealthSchema) }),
  'monitoring.alertGroups': endpoint({ method: 'GET', path: '/api/settings/monitoring-alert-groups', summary: 'Who gets "Monitoring backend unreachable"', tag: 'Operations', access: 'read', response: one(monitoringAlertGroupsAnswerSchema) }),
  'monitoring.setAlertGroups': endpoint({ method: 'PATCH', path: '/api/settings/monitoring-alert-groups', summary: 'Change who gets "Monitoring backend unreachable"', tag: 'Operations', access: 'settings.write', body: monitoringAlertGroupsSchema, response: one(monitoringAlertGroupsAnswerSchema) }),
  'reach.get': endpoint({ method: 'GET', path: '/api/alerting/reach', summary: 'Whether a firing alert reaches anyone: rules without a group, the default group, groups that cannot send', tag: 'Alert rules', access: 'read', response: one(alertReachSchema) }),
  'reach.defaultGroup': endpoint({ method: 'GET', path: '/api/settings/default-notification-group', summary: 'The notification group new rules notify', tag: 'Alert rules', access: 'read', response: one(defaultGroupAnswerSchema) }),
  'reach.setDefaultGroup': endpoint({ method: 'PATCH', path: '/api/settings/default-notification-group', summary: 'Set the group new rules notify (null: none); rules that notify nobody get it too', tag: 'Alert rules', access: 'rules.write', body: defaultGroupRequestSchema, response: one(defaultGroupAnswerSchema) }),

  // Sessions, accounts, tokens, aliases
  'auth.signin': endpoint({ method: 'POST', path: '/api/auth/signin', summary: 'Sign in (sets the session cookie)', tag: 'Auth', access: 'public', body: signinSchema, response: one(whoamiSchema) }),
  'auth.signout': endpoint({ method: 'POST', path: '/api/auth/signout', summary: 'Sign out (ends the session)', tag: 'Auth', access: 'public', response: one(z.literal(true)) }),
  'auth.whoami': endpoint({ method: 'GET', path: '/api/auth/whoami', summary: 'The signed-in user', tag: 'Auth', access: 'signed-in', response: one(whoamiSchema) }),
  'auth.account': endpoint({ method: 'GET', path: '/api/auth/users/:id', summary: 'Your own account', tag: 'Auth', access: 'signed-in', response: one(userSchema) }),
  'auth.updateAccount': endpoint({ method: 'PATCH', path: '/api/auth/users/:id', summary: 'Change your own account', tag: 'Auth', access: 'signed-in', body: updateAccountSchema, response: one(userSchema) }),
  'tokens.list': endpoint({ method: 'GET', path: '/api/auth/tokens', summary: 'Your personal API tokens (revoked ones too)', tag: 'Auth', access: 'read', response: page(personalTokenSchema) }),
  'tokens.create': endpoint({ method: 'POST', path: '/api/auth/tokens', summary: 'Make a personal API token (its secret is answered once)', tag: 'Auth', access: 'read', body: createTokenSchema, response: one(personalTokenSchema.extend({ token: z.string() })), status: 201 }),
  'tokens.revoke': endpoint({ method: 'DELETE', path: '/api/auth/tokens/:id', summary: 'Revoke one of your API tokens', tag: 'Auth', access: 'read', response: one(personalTokenSchema) }),
  'aliases.list': endpoint({ method: 'GET', path: '/api/aliases', summary: 'Your command aliases', tag: 'Commands', access: 'read', response: one(z.array(aliasSchema)) }),
  'aliases.put': endpoint({ method: 'PUT', path: '/api/aliases/:name', summary: 'Set one of your command aliases', tag: 'Commands', access: 'read', params: { name: aliasNameSchema }, body: putAliasSchema, response: one(aliasSchema) }),
  'aliases.remove': endpoint({ method: 'DELETE', path: '/api/aliases/:name', summary: 'Remove one of your command aliases', tag: 'Commands', access: 'read', params: { name: aliasNameSchema }, response: one(aliasSchema) }),

  // People's contact methods (issue 27 §2): one's own, or anyone's for an admin
  'contactMethods.list': endpoint({ method: 'GET', path: '/api/users/:id/contact-methods', summary: "A person's contact methods (yours, or anyone's for an admin)", tag: 'Users', access: 'read', response: page(contactMethodSchema) }),
  'contactMethods.create': endpoint({ method: 'POST', path: '/api/users/:id/contact-methods', summary: 'Add a contact method (unverified until its test code is entered)', tag: 'Users', access: 'read', body: contactMethodInputSchema, response: one(contactMethodSchema), status: 201 }),
  'contactMethods.remove': endpoint({ method: 'DELETE', path: '/api/users/:id/contact-methods/:method', summary: 'Remove a contact method (by id or label)', tag: 'Users', access: 'read', response: one(contactMethodSchema) }),
  'contactMethods.test': endpoint({ method: 'POST', path: '/api/users/:id/contact-methods/:method/test', summary: 'Send a test message with a verification code to a contact method', tag: 'Users', access: 'read', response: one(contactTestResultSchema) }),
  'contactMethods.verify': endpoint({ method: 'POST', path: '/api/users/:id/contact-methods/:method/verify', summary: "Enter the test message's code: the contact method is verified", tag: 'Users', access: 'read', body: verifyContactSchema, response: one(contactMethodSchema) }),
  // Their notification rules: the order their methods are paged in while an alert stays unacknowledged
  'notificationRules.list': endpoint({ method: 'GET', path: '/api/users/:id/notification-rules', summary: "A person's notification rules in the order they fire (the default when none are set)", tag: 'Users', access: 'read', response: one(notificationRulesSchema) }),
  'notificationRules.create': endpoint({ method: 'POST', path: '/api/users/:id/notification-rules', summary: 'Add a step: after N minutes unacknowledged, one of the person\'s verified contact methods', tag: 'Users', access: 'read', body: notificationRuleInputSchema, response: one(notificationRuleSchema), status: 201 }),
  'notificationRules.remove': endpoint({ method: 'DELETE', path: '/api/users/:id/notification-rules/:rule', summary: 'Remove a step of the notification rules', tag: 'Users', access: 'read', response: one(notificationRuleSchema) }),

  ...resource('users', { name: 'users', tag: 'Users', noun: 'user', entity: userSchema, read: 'users.read', create: { body: createUserSchema, access: 'users.write' }, update: { body: updateUserSchema, access: 'users.write' }, remove: { access: 'users.write' } }),

  // Command history: the incident log
  ...resource('commandHistory', { name: 'command-history', tag: 'Commands', noun: 'history record', entity: commandHistoryEntrySchema, read: 'read' }),
  'commandHistory.export': endpoint({ method: 'GET', path: '/api/command-history/export', summary: 'The history of a window as a file (JSON Lines)', tag: 'Commands', access: 'read', query: historyExportQuerySchema, produces: 'application/x-ndjson' }),
  'live.stream': endpoint({ method: 'GET', path: '/api/live', summary: 'What changed, as server-sent events (alerts, servers, services, checks, History records, on-call schedules); resume with Last-Event-ID', tag: 'Commands', access: 'read', query: z.object({ lastEventId: z.string().optional() }), produces: 'text/event-stream' }),
  'incidentReport.get': endpoint({ method: 'GET', path: '/api/incident-report', summary: "A window's alerts and commands, for one server or all", tag: 'Commands', access: 'read', query: incidentReportQuerySchema, response: one(incidentReportSchema) }),

  // Servers and monitoring
  ...resource('servers', { name: 'servers', tag: 'Servers', noun: 'server', entity: serverSchema, read: 'read', create: { body: createServerSchema, access: 'servers.write' }, update: { body: updateServerSchema, access: 'servers.write' }, remove: { access: 'servers.write' } }),
  ...resource('serverMetrics', { name: 'servers/metrics', tag: 'Servers', noun: 'server (with usage)', entity: serverSchema, read: 'read' }),
  'servers.usage': endpoint({ method: 'GET', path: '/api/servers/metrics/usage/:id', summary: "A server's CPU, memory and disk usage now", tag: 'Servers', access: 'read', response: one(serverUsageSchema) }),
  'servers.upStatus': endpoint({ method: 'GET', path: '/api/servers/upstatus/:id', summary: 'Whether a server is up, and since when', tag: 'Servers', access: 'read', response: one(serverUpStatusSchema) }),
  'servers.chart': endpoint({ method: 'GET', path: '/api/servers/chart/:id', summary: "A server's metric over a time range", tag: 'Servers', access: 'read', query: chartQuerySchema, response: one(chartDataSchema) }),
  'servers.forecast': endpoint({ method: 'GET', path: '/api/servers/forecast/:id', summary: "When a server's disks and memory run out at the current trend", tag: 'Servers', access: 'read', response: one(serverForecastsSchema) }),
  'services.list': endpoint({ method: 'POST', path: '/api/prometheus/get-services/all', summary: "List servers' services and their state", tag: 'Servers', access: 'read', body: listQuerySchema, response: page(serviceRecordSchema) }),
  'prometheus.targets': endpoint({ method: 'GET', path: '/api/prometheus/targets', summary: 'The scrape targets (Prometheus HTTP service discovery format)', tag: 'Servers', access: 'prometheus-sd-token', response: z.array(prometheusTargetGroupSchema) }),
  'monitoring.config': endpoint({ method: 'GET', path: '/api/monitoring/config', summary: 'How monitoring is set up (scrape interval, backend)', tag: 'Servers', access: 'read', response: one(monitoringConfigSchema) }),

  // Agent set-up
  'agent.createKey': endpoint({ method: 'POST', path: '/api/cli/create_api_key', summary: "Make an installer key for a server's agent", tag: 'Agent', access: 'servers.write', body: createApiKeySchema, response: z.object({ data: createdApiKeySchema }), status: 201 }),
  'agent.validateKey': endpoint({ method: 'GET', path: '/api/cli/validate_api_key/:key', summary: 'The installer asks whether its key is valid', tag: 'Agent', access: 'agent-key', response: z.object({ data: validatedApiKeySchema }) }),
  'agent.installed': endpoint({ method: 'POST', path: '/api/cli/agent-installed', summary: 'The installer reports the agent installed', tag: 'Agent', access: 'agent-key', body: agentReportSchema, response: z.object({ data: agentInstalledSchema }) }),
  'agent.keys': endpoint({ method: 'GET', path: '/api/cli/api_keys', summary: 'Installer keys (of one server with ?serverId=)', tag: 'Agent', access: 'servers.write', query: z.object({ serverId: z.string().optional() }), response: page(apiKeyInfoSchema) }),
  'agent.revokeKey': endpoint({ method: 'DELETE', path: '/api/cli/api_keys/:id', summary: 'Revoke an installer key', tag: 'Agent', access: 'servers.write', response: one(revokedApiKeySchema) }),
  'agent.checkPort': endpoint({ method: 'GET', path: '/api/servers/check-port-access/:id', summary: "Whether Opsdeck reaches the server's agent port", tag: 'Agent', access: 'servers.write', response: portAccessSchema }),
  'agent.setConfigured': endpoint({ method: 'PATCH', path: '/api/servers/update-agent-configure-status/:id', summary: "Mark a server's agent set up (or not)", tag: 'Agent', access: 'servers.write', response: one(serverSchema).extend({ isAgentConfigured: z.boolean() }) }),
  'agent.linuxInstaller': agentDownload(`/cli/${CLI_VERSION}/sb-cli`, 'The Linux installer script'),
  'agent.windowsInstaller': agentDownload(`/cli/${CLI_VERSION}/sb-cli.ps1`, 'The Windows installer script'),
  'agent.otherFile': agentDownload(`/cli/${CLI_VERSION}/:file`, 'Another file of this version (none is served: the answer says which installer to use)'),
  'agent.otherVersion': agentDownload('/cli/:version/:file', 'A file of another version (refused, naming the version served)'),

  // Alerts
  'alerts.list': endpoint({
    method: 'POST',
    path: '/api/alerts/all',
    summary: 'List alerts: page, sort, filter and search',
    notes: `Sort by ${alertSortable.map((k) => `\`${k}\``).join(', ')} (default \`createdAt\` desc). \`{ by: '${FIRING_SORT}', direction: 'desc' }\`: firing alerts first, then snoozed and resolved ones, each newest first, paged straight across; descending only.`,
    tag: 'Alerts',
    access: 'read',
    body: listQuerySchema,
    response: page(alertSchema),
  }),
  'alerts.byIds': endpoint({ method: 'GET', path: '/api/alerts', summary: 'Alerts by id (?id=…&id=…)', tag: 'Alerts', access: 'read', query: idsQuery, response: one(z.array(alertSchema)) }),
  'alerts.get': endpoint({ method: 'GET', path: '/api/alerts/:id', summary: 'One alert with its timeline', tag: 'Alerts', access: 'read', response: one(alertDetailSchema) }),
  'alerts.update': endpoint({ method: 'PATCH', path: '/api/alerts/:id', summary: "Change an alert's status (resolve, reopen, snooze) with a note", tag: 'Alerts', access: 'alerts.triage', body: updateAlertSchema, response: one(alertDetailSchema) }),
  'alerts.ack': endpoint({ method: 'POST', path: '/api/alerts/:id/ack', summary: 'Acknowledge an alert', tag: 'Alerts', access: 'alerts.triage', body: ackAlertSchema, response: one(alertDetailSchema) }),
  'alerts.unack': endpoint({ method: 'POST', path: '/api/alerts/:id/unack', summary: 'Take back an acknowledgement', tag: 'Alerts', access: 'alerts.triage', body: unackAlertSchema, response: one(alertDetailSchema) }),
  'alerts.remove': endpoint({ method: 'DELETE', path: '/api/alerts/:id', summary: 'Delete an alert', tag: 'Alerts', access: 'alerts.delete', response: one(removedSchema) }),
  'alertConfig.list': endpoint({ method: 'POST', path: '/api/alert-config/get-alert-config/all', summary: "List servers' alert rules", tag: 'Alert rules', access: 'read', body: listQuerySchema, response: page(alertConfigSchema) }),
  'alertConfig.createDefaults': endpoint({ method: 'POST', path: '/api/alert-config/create-default-alert-rules/:serverId', summary: 'Give a server the default alert rules', tag: 'Alert rules', access: 'rules.write', response: one(alertConfigSchema), status: 201 }),
  'alertConfig.update': endpoint({ method: 'PATCH', path: '/api/alert-config/update-alert-config/:id', summary: "Change a server's alert rules", tag: 'Alert rules', access: 'rules.write', body: updateAlertConfigSchema, response: one(alertConfigSchema) }),
  'alertConfig.reset': endpoint({ method: 'PATCH', path: '/api/alert-config/reset-alert-rules/:id', summary: "Put a server's alert rules back to the defaults", tag: 'Alert rules', access: 'rules.write', response: one(alertConfigSchema) }),
  ...resource('notificationGroups', { name: 'notification-groups', tag: 'Notification groups', noun: 'notification group', entity: notificationGroupSchema, read: 'read', create: { body: createNotificationGroupSchema, access: 'groups.write' }, update: { body: updateNotificationGroupSchema, access: 'groups.write' }, remove: { access: 'groups.write' } }),
  'channels.list': endpoint({ method: 'GET', path: '/api/notification-groups/:id/channels', summary: "A group's channel targets (webhook, Teams, PagerDuty, Telegram, ntfy), secrets masked", tag: 'Notification groups', access: 'read', response: one(z.array(notificationChannelSchema)) }),
  'channels.create': endpoint({ method: 'POST', path: '/api/notification-groups/:id/channels', summary: 'Add a channel target to a group', tag: 'Notification groups', access: 'groups.write', body: channelInputSchema, response: one(notificationChannelSchema), status: 201 }),
  'channels.update': endpoint({ method: 'PATCH', path: '/api/notification-groups/:id/channels/:channel', summary: 'Edit a channel target in place (by id or name): secrets left out or empty are kept', tag: 'Notification groups', access: 'groups.write', body: channelUpdateSchema, response: one(notificationChannelSchema) }),
  'channels.remove': endpoint({ method: 'DELETE', path: '/api/notification-groups/:id/channels/:channel', summary: 'Remove a channel target (by id or name)', tag: 'Notification groups', access: 'groups.write', response: one(notificationChannelSchema) }),
  'notificationGroups.test': endpoint({ method: 'POST', path: '/api/notification-groups/:id/test', summary: "Send a test notification to a group's channels (or one of them)", tag: 'Notification groups', access: 'groups.write', body: testGroupSchema, response: one(z.array(channelTestResultSchema)) }),
  'alerts.deliveries': endpoint({ method: 'GET', path: '/api/alerts/:id/deliveries', summary: "An alert's delivery log: every attempt on every channel", tag: 'Alerts', access: 'read', response: one(z.array(deliveryLogEntrySchema)) }),
  ...resource('silences', { name: 'silences', tag: 'Silences', noun: 'silence', entity: silenceSchema, read: 'read', create: { body: createSilenceSchema, access: 'alerts.triage' }, update: { body: updateSilenceSchema, access: 'alerts.triage' } }),
  'silences.expire': endpoint({ method: 'POST', path: '/api/silences/:id/expire', summary: 'End a silence now', tag: 'Silences', access: 'alerts.triage', response: one(silenceSchema) }),
  'silences.preview': endpoint({ method: 'POST', path: '/api/silences/preview', summary: 'Which firing alerts these matchers would silence', tag: 'Silences', access: 'read', body: silencePreviewRequestSchema, response: one(matchPreviewSchema) }),
  ...resource('maintenanceWindows', { name: 'maintenance-windows', tag: 'Maintenance windows', noun: 'maintenance window', entity: maintenanceWindowSchema, read: 'read', create: { body: createWindowSchema, access: 'servers.write' }, update: { body: updateWindowSchema, access: 'servers.write' }, remove: { access: 'servers.write' } }),
  'maintenanceWindows.preview': endpoint({ method: 'POST', path: '/api/maintenance-windows/preview', summary: 'Which servers and alerts a window would cover', tag: 'Maintenance windows', access: 'read', body: windowPreviewRequestSchema, response: one(matchPreviewSchema) }),
  'maintenanceWindows.occurrences': endpoint({ method: 'GET', path: '/api/maintenance-windows/occurrences', summary: 'Windows in a calendar range (at most 62 days)', tag: 'Maintenance windows', access: 'read', query: occurrencesQuerySchema, response: one(z.array(occurrenceSchema)) }),

  // On call (issue 27): schedules, their layers, overrides and swaps, who is on call, calendar feeds and import
  ...resource('oncallSchedules', { name: 'oncall-schedules', tag: 'On call', noun: 'on-call schedule', entity: scheduleSchema, read: 'read', create: { body: createScheduleSchema, access: 'oncall.write' }, update: { body: updateScheduleSchema, access: 'oncall.write' }, remove: { access: 'oncall.write' } }),
  'oncallSchedules.addLayer': endpoint({ method: 'POST', path: '/api/oncall-schedules/:id/layers', summary: 'Add a layer (it wins over the layers before it)', tag: 'On call', access: 'oncall.write', body: layerInputSchema, response: one(scheduleSchema), status: 201 }),
  'oncallSchedules.editLayer': endpoint({ method: 'PATCH', path: '/api/oncall-schedules/:id/layers/:layer', summary: 'Change a layer (by id, name or 1-based number)', tag: 'On call', access: 'oncall.write', body: layerUpdateSchema, response: one(scheduleSchema) }),
  'oncallSchedules.removeLayer': endpoint({ method: 'DELETE', path: '/api/oncall-schedules/:id/layers/:layer', summary: 'Remove a layer and the swaps of its shifts', tag: 'On call', access: 'oncall.write', response: one(scheduleSchema) }),
  'oncallSchedules.addOverride': endpoint({ method: 'POST', path: '/api/oncall-schedules/:id/overrides', summary: 'Put someone on call for a range, over every layer (ranges never overlap)', tag: 'On call', access: 'oncall.write', body: overrideInputSchema, response: one(scheduleSchema), status: 201 }),
  'oncallSchedules.removeOverride': endpoint({ method: 'DELETE', path: '/api/oncall-schedules/:id/overrides/:override', summary: 'Remove an override', tag: 'On call', access: 'oncall.write', response: one(scheduleSchema) }),
  'oncallSchedules.addSwap': endpoint({ method: 'POST', path: '/api/oncall-schedules/:id/swaps', summary: 'Swap the people of two shifts, each named by its layer and the instant it starts', tag: 'On call', access: 'oncall.write', body: swapInputSchema, response: one(scheduleSchema), status: 201 }),
  'oncallSchedules.final': endpoint({ method: 'GET', path: '/api/oncall-schedules/:id/final', summary: 'The final schedule over a range (at most 62 days): spans, who and why, and gaps', tag: 'On call', access: 'read', query: finalQuerySchema, response: one(finalScheduleSchema) }),
  'oncallSchedules.import': endpoint({ method: 'POST', path: '/api/oncall-schedules/import', summary: 'Create a schedule from an iCalendar file (PagerDuty, Opsgenie, Grafana OnCall, a shared calendar)', tag: 'On call', access: 'oncall.write', body: importScheduleSchema, response: one(importResultSchema), status: 201 }),
  'oncallSchedules.createFeed': endpoint({ method: 'POST', path: '/api/oncall-schedules/:id/feed', summary: "Make (or rotate) the schedule's secret calendar feed URL, shown once", tag: 'On call', access: 'oncall.write', response: one(feedUrlSchema), status: 201 }),
  'oncallSchedules.revokeFeed': endpoint({ method: 'DELETE', path: '/api/oncall-schedules/:id/feed', summary: "Revoke the schedule's calendar feed URL", tag: 'On call', access: 'oncall.write', response: one(z.object({ revoked: z.boolean() })) }),
  'oncall.who': endpoint({ method: 'GET', path: '/api/oncall/who', summary: 'Who is on call, for one schedule or every one, at an instant (default now)', tag: 'On call', access: 'read', query: whoQuerySchema, response: one(z.array(whoSchema)) }),
  'oncall.gaps': endpoint({ method: 'GET', path: '/api/oncall/gaps', summary: 'Where nobody is on call in the next 7 days: one schedule, or every schedule that has such a gap', tag: 'On call', access: 'read', query: gapsQuerySchema, response: one(z.array(scheduleGapsSchema)) }),
  'oncall.myShift': endpoint({ method: 'GET', path: '/api/oncall/my-shift', summary: 'Your current on-call shift, else your next one within 14 days, in any schedule', tag: 'On call', access: 'signed-in', response: one(myShiftSchema) }),
  'oncall.createMyFeed': endpoint({ method: 'POST', path: '/api/oncall/my-feed', summary: 'Make (or rotate) your own calendar feed URL of your shifts in every schedule, shown once', tag: 'On call', access: 'signed-in', response: one(feedUrlSchema), status: 201 }),
  'oncall.revokeMyFeed': endpoint({ method: 'DELETE', path: '/api/oncall/my-feed', summary: 'Revoke your own calendar feed URL', tag: 'On call', access: 'signed-in', response: one(z.object({ revoked: z.boolean() })) }),
  'oncall.calendar': endpoint({ method: 'GET', path: '/api/oncall/calendar', summary: "A schedule's or a person's on-call calendar (iCalendar, RFC 5545), by its secret", tag: 'On call', access: 'calendar-feed-token', query: feedQuerySchema, produces: 'text/calendar' }),

  // Issue 27 §4: acting on an alert from its notification; the signed token in the path is the credential.
  'pageActions.show': endpoint({ method: 'GET', path: '/api/page-actions/:token', summary: "What a notification's acknowledge or resolve link would do, with a button to do it (a page; changes nothing)", tag: 'Alerts', access: 'page-action-token', produces: 'text/html' }),
  'pageActions.run': endpoint({
    method: 'POST',
    path: '/api/page-actions/:token',
    summary: "Acknowledge or resolve an alert by a notification's signed link or button, as the person it was sent to (a page)",
    notes: 'Any body (the page\'s form, an ntfy action) is ignored. Refused: 403 a forged or changed link, 410 an expired one, 409 one used already or an alert that no longer needs it, 404 an alert deleted since.',
    tag: 'Alerts',
    access: 'page-action-token',
    produces: 'text/html',
  }),

  'slack.interactions': endpoint({
    method: 'POST',
    path: '/api/integrations/slack/interactions',
    summary: "Slack's interaction requests (a press of an alert message's Acknowledge or Resolve button), as the Opsdeck user the Slack member is",
    notes: "Slack's form-encoded `payload` (block_actions), signed with SLACK_SIGNING_SECRET. The answer is 200 with no body; the outcome is sent to the person who pressed through the payload's response_url (ephemeral).",
    tag: 'Alerts',
    access: 'slack-signature',
  }),

  // Alertmanager both ways (issue 15)
  'alertmanager.receive': endpoint({ method: 'POST', path: '/api/integrations/alertmanager', summary: "Alertmanager's webhook (payload version 4): its alerts as Opsdeck alerts", tag: 'Alertmanager', access: 'alertmanager-token', body: amWebhookSchema, response: one(amReceiveResultSchema) }),
  'alertmanager.status': endpoint({ method: 'GET', path: '/api/integrations/alertmanager', summary: 'The push to Alertmanager and the receiver: instances, last push, mirrored silences, token', tag: 'Alertmanager', access: 'read', response: one(integrationsStatusSchema) }),
  'alertmanager.createToken': endpoint({ method: 'POST', path: '/api/integrations/alertmanager/token', summary: 'Create the receiver token (shown once; replaces the previous one)', tag: 'Alertmanager', access: 'settings.write', response: one(receiverTokenSchema) }),
  'alertmanager.removeToken': endpoint({ method: 'DELETE', path: '/api/integrations/alertmanager/token', summary: 'Remove the receiver token', tag: 'Alertmanager', access: 'settings.write', response: one(z.object({ removed: z.literal(true) })) }),

  // Website checks
  ...resource('checks', { name: 'checks', tag: 'Checks', noun: 'check', entity: checkSchema, read: 'read', create: { body: createCheckSchema, access: 'checks.write' }, update: { body: updateCheckSchema, access: 'checks.write' }, remove: { access: 'checks.write' } }),
  // A deletion answers the id it removed (server/routes/resource.ts), not the check; the key keeps its place.
  'checks.runNow': endpoint({ method: 'POST', path: '/api/checks/run-now/:id', summary: 'Run a check now', tag: 'Checks', access: 'checks.write', response: one(checkSchema).extend({ run: checkRunSchema }) }),
  'checks.history': endpoint({ method: 'GET', path: '/api/checks/history/:id', summary: "A check's latency and state over a time range", tag: 'Checks', access: 'read', query: checkHistoryQuerySchema, response: one(checkHistorySchema) }),
  'checks.results': endpoint({ method: 'GET', path: '/api/checks/results/:id', summary: "A check's latest results", tag: 'Checks', access: 'read', query: checkResultsQuerySchema, response: one(z.array(checkResultSchema)) }),
  'checks.uptime': endpoint({ method: 'GET', path: '/api/checks/uptime/:id', summary: "A check's uptime per day", tag: 'Checks', access: 'read', response: one(checkUptimeSchema) }),

  // Public status pages (issue 16 §3)
  ...resource('statusPages', { name: 'status-pages', tag: 'Status pages', noun: 'status page', entity: statusPageSchema, read: 'read', create: { body: createStatusPageSchema, access: 'status.write' }, update: { body: updateStatusPageSchema, access: 'status.write' }, remove: { access: 'status.write' } }),
  // A deletion answers the id it removed (server/routes/resource.ts), not the page; the key keeps its place.
  'statusPages.post': endpoint({ method: 'POST', path: '/api/status-pages/post/:id', summary: "Post an incident update (markdown): adds to the page's open incident or opens one", tag: 'Status pages', access: 'status.post', body: statusPostInputSchema, response: one(postedIncidentSchema), status: 201 }),
  'statusPages.resolve': endpoint({ method: 'POST', path: '/api/status-pages/resolve/:id', summary: "Resolve the page's open incident, with an optional last update", tag: 'Status pages', access: 'status.post', body: statusResolveInputSchema, response: one(postedIncidentSchema) }),
  'statusPages.public': endpoint({ method: 'GET', path: '/api/public/status/:slug', summary: 'A status page as the public sees it (no sign-in)', tag: 'Status pages', access: 'public', response: one(publicStatusSchema) }),

  // The palette's entity search (issue 13)
  'search.entities': endpoint({ method: 'GET', path: '/api/search', summary: 'Servers, alerts, users, checks and groups matching every word of a text, a few of each', tag: 'Search', access: 'read', query: searchQuerySchema, response: searchResultSchema }),
  // Dashboard analytics
  'analytics.topCpu': endpoint({ method: 'GET', path: '/api/analytics/top-cpu-usage-servers', summary: 'Servers by CPU usage', tag: 'Analytics', access: 'read', query: percentageQuerySchema, response: cpuUsageResultSchema }),
  'analytics.topMemory': endpoint({ method: 'GET', path: '/api/analytics/top-memory-usage-servers', summary: 'Servers by memory usage', tag: 'Analytics', access: 'read', query: percentageQuerySchema, response: memoryUsageResultSchema }),
  'analytics.topDisk': endpoint({ method: 'GET', path: '/api/analytics/top-disk-usage-servers', summary: 'Servers by disk usage', tag: 'Analytics', access: 'read', query: percentageQuerySchema, response: diskUsageResultSchema }),
  'analytics.nodesSummary': endpoint({ method: 'GET', path: '/api/analytics/nodes-summary', summary: 'Servers running, down and total', tag: 'Analytics', access: 'read', response: nodesSummaryResultSchema }),
  'analytics.alertsSummary': endpoint({ method: 'GET', path: '/api/analytics/alerts-summary', summary: 'Alerts by status', tag: 'Analytics', access: 'read', response: alertsSummaryResultSchema }),
  'analytics.servicesDown': endpoint({ method: 'GET', path: '/api/analytics/get-services-down', summary: 'Services down now', tag: 'Analytics', access: 'read', response: servicesDownResultSchema }),
  'analytics.downServers': endpoint({ method: 'GET', path: '/api/analytics/get-down-servers', summary: 'Servers down now', tag: 'Analytics', access: 'read', response: downServersResultSchema }),
};

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;

/** The table as a list, in declaration order (the OpenAPI description's order). */
export const apiRoutes: readonly ApiRoute[] = Object.values(endpoints);

export const apiErrorSchema = apiErrorBodySchema;
