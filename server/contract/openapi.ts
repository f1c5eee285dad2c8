import { z } from 'zod';
import { apiErrorBodySchema } from './common';
import { apiRoutes, type ApiRoute } from './api-routes';
import { AUDIT_HEADERS } from './command-history';
import type { OwnCredential } from './endpoint';

type Json = Record<string, unknown>;

/** `/api/servers/:id` → `/api/servers/{id}`, and its path parameters. */
export function openApiPath(path: string): { path: string; params: string[] } {
  const params: string[] = [];
  const out = path.replace(/:([A-Za-z_]+)/g, (_m, name: string) => {
    params.push(name);
    return `{${name}}`;
  });
  return { path: out, params };
}

/**
 * JSON Schema of one zod schema. Requests are described as they are accepted (`io: 'input'`:
 * defaults may be left out), answers as they are sent. What JSON Schema cannot say (a transform,
 * a refinement's rule) is left open rather than failing the whole document.
 */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  return rest;
}

function queryParameters(schema: z.ZodType): Json[] {
  const described = jsonSchema(schema, 'input');
  const properties = (described.properties ?? {}) as Record<string, Json>;
  const required = new Set((described.required ?? []) as string[]);
  return Object.entries(properties).map(([name, s]) => ({ name, in: 'query', required: required.has(name), schema: s }));
}

const ACCESS_TEXT: Record<string, string> = {
  public: 'Anyone (no credentials).',
  'signed-in': 'Any signed-in user or personal API token.',
  'alertmanager-token': "The Alertmanager receiver's token (Authorization: Bearer <token>): ALERTMANAGER_RECEIVER_TOKEN or one an admin created.",
  'prometheus-sd-token': "Prometheus's service-discovery token (Authorization: Bearer <token>, or the bare token): PROMETHEUS_SD_TOKEN; while it is unset the call is refused (403).",
  'calendar-feed-token': 'The secret of a calendar feed (`?token=`), made for a schedule or a person; a revoked or unknown one finds nothing (404).',
  'slack-signature': "Slack's request signature (X-Slack-Signature, v0 HMAC-SHA256 with SLACK_SIGNING_SECRET, and X-Slack-Request-Timestamp within 5 minutes); off (404) while SLACK_SIGNING_SECRET is unset.",
  'page-action-token': "A notification's signed page action (`{token}` in the path): made for one person, one alert and one action, it works once and expires.",
};

/**
 * Where a route takes the agent installer's key: SPEC puts it in validate_api_key's path (the
 * route reads no header), the installer's report sends it as a header. OpenAPI has no security
 * scheme for a path: both routes name agentKey (an unknown key hears 401, so neither is open to
 * anyone) and the scheme's and each route's descriptions say where the key goes.
 */
function agentKeyIn(route: ApiRoute): string {
  return openApiPath(route.path).params.includes('key') ? 'sent in the path as {key}; no header is read' : 'sent as `Authorization: Bearer <key>` (or `x-api-key: <key>`)';
}

/** The security scheme (components.securitySchemes) of each credential a route checks itself. */
const SECURITY: Record<OwnCredential, string> = { 'agent-key': 'agentKey', 'alertmanager-token': 'alertmanagerToken', 'prometheus-sd-token': 'prometheusSdToken', 'calendar-feed-token': 'calendarFeedToken', 'page-action-token': 'pageActionToken', 'slack-signature': 'slackSignature' };

function operation(route: ApiRoute, params: string[]): Json {
  const access =
    route.access === 'agent-key'
      ? `The agent installer's key, ${agentKeyIn(route)}.`
      : (ACCESS_TEXT[route.access] ?? `Needs the permission \`${route.access}\` (see server/contract/permissions.ts).`);
  const status = String(route.status ?? 200);
  const ok: Json = { description: route.produces ? `The file or text (${route.produces}).` : 'Success.' };
  if (route.response) ok.content = { 'application/json': { schema: jsonSchema(route.response, 'output') } };
  else if (route.produces) ok.content = { [route.produces]: {} };
  const op: Json = {
    operationId: `${route.method.toLowerCase()} ${route.path}`,
    summary: route.summary,
    description: route.notes ? `${route.notes} ${access}` : access,
    tags: [route.tag],
    parameters: [...params.map((name) => ({ name, in: 'path', required: true, schema: route.params?.[name] ? jsonSchema(route.params[name], 'input') : { type: 'string' } })), ...(route.query ? queryParameters(route.query) : [])],
    responses: {
      [status]: ok,
      '4XX': { description: 'Refused: the message names the reason, `field` the input at fault.', content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } } },
    },
  };
  if (route.access === 'public') op.security = [];
  else if (route.access in SECURITY) op.security = [{ [SECURITY[route.access as OwnCredential]]: [] }];
  if (route.body) op.requestBody = { required: true, content: { 'application/json': { schema: jsonSchema(route.body, 'input') } } };
  return op;
}

/**
 * `/api/openapi.json`: OpenAPI 3.1 generated from the contract's route list and zod schemas, so
 * the description cannot drift from what the routes parse and answer.
 */
export function buildOpenApi(version: string, routes: readonly ApiRoute[] = apiRoutes): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const route of routes) {
    const { path, params } = openApiPath(route.path);
    const item = (paths[path] ??= {});
    const method = route.method.toLowerCase();
    if (item[method]) throw new Error(`Two descriptions of ${route.method} ${route.path}`);
    item[method] = operation(route, params);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Opsdeck API',
      version,
      description:
        'Every action of the console is a command that calls this API. Authenticate with a personal API token ' +
        '(Account Settings → API tokens) as `Authorization: Bearer <token>`; the browser uses its session cookie and ' +
        `the \`x-requested-with: opsdeck\` header instead. Writes are recorded in the command history under your name; ` +
        `\`${AUDIT_HEADERS.command}\` and \`${AUDIT_HEADERS.commandLine}\` (percent-encoded) name the command a call belongs to.`,
    },
    servers: [{ url: '/' }],
    security: [{ personalToken: [] }, { session: [] }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        personalToken: { type: 'http', scheme: 'bearer', description: 'A personal API token (odt_…).' },
        session: { type: 'apiKey', in: 'cookie', name: 'opsdeck_session', description: 'The browser session; writes also need `x-requested-with: opsdeck`.' },
        agentKey: {
          type: 'http',
          scheme: 'bearer',
          description: `An agent installer's key. ${routes
            .filter((r) => r.access === 'agent-key')
            .map((r) => `${r.method} ${openApiPath(r.path).path}: ${agentKeyIn(r)}.`)
            .join(' ')}`,
        },
        alertmanagerToken: { type: 'http', scheme: 'bearer', description: "The Alertmanager receiver's token." },
        prometheusSdToken: { type: 'http', scheme: 'bearer', description: "Prometheus's service-discovery token (PROMETHEUS_SD_TOKEN)." },
        calendarFeedToken: { type: 'apiKey', in: 'query', name: 'token', description: "An on-call calendar feed's secret." },
        slackSignature: { type: 'apiKey', in: 'header', name: 'X-Slack-Signature', description: "Slack's request signature with SLACK_SIGNING_SECRET (and X-Slack-Request-Timestamp)." },
        pageActionToken: { type: 'http', scheme: 'bearer', description: "A notification's signed page action, sent in the path as {token}; no header is read." },
      },
      schemas: { ApiError: jsonSchema(apiErrorBodySchema, 'output') },
    },
  };
}
