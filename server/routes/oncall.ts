import type { FastifyInstance } from 'fastify';
import { audited } from '../audit/trail';
import { endpoints } from '../contract/api-routes';
import type { Db } from '../db/client';
import { publicUrlOf } from '../http/public-url';
import { serve } from '../http/serve';
import { createPersonFeed, createScheduleFeed, feedCalendar, importSchedule, revokePersonFeed, revokeScheduleFeed } from '../oncall/calendars';
import { scheduleResource } from '../oncall/resource';
import { addLayer, addOverride, addSwap, editLayer, finalSchedule, myShift, removeLayer, removeOverride, scheduleGaps, whoIsOnCall } from '../oncall/service';
import { registerResource } from './resource';

/**
 * Issue 27 §1, §6 (docs/oncall.md): on-call schedules as SPEC's generic calls, their layers,
 * overrides and swaps, who is on call, the final schedule, import from iCalendar, and the secret
 * calendar feeds, which a calendar app reads by their token alone.
 */
export function registerOnCall(app: FastifyInstance, db: Db, options: { publicUrl?: string }): void {
  registerResource(app, db, scheduleResource(db));

  serve(app, endpoints['oncallSchedules.addLayer'], async ({ params, body, user, request }) => ({ result: await audited(request, db, (tx, audit) => addLayer(tx, { id: params.id, layer: body }, user, audit)) }));
  serve(app, endpoints['oncallSchedules.editLayer'], async ({ params, body, user, request }) => ({ result: await audited(request, db, (tx, audit) => editLayer(tx, { id: params.id, layer: params.layer, changes: body }, user, audit)) }));
  serve(app, endpoints['oncallSchedules.removeLayer'], async ({ params, user, request }) => ({ result: await audited(request, db, (tx, audit) => removeLayer(tx, params, user, audit)) }));
  serve(app, endpoints['oncallSchedules.addOverride'], async ({ params, body, user, request }) => ({ result: await audited(request, db, (tx, audit) => addOverride(tx, { id: params.id, ...body }, user, audit)) }));
  serve(app, endpoints['oncallSchedules.removeOverride'], async ({ params, user, request }) => ({ result: await audited(request, db, (tx, audit) => removeOverride(tx, params, user, audit)) }));
  serve(app, endpoints['oncallSchedules.addSwap'], async ({ params, body, user, request }) => ({ result: await audited(request, db, (tx, audit) => addSwap(tx, { id: params.id, ...body }, user, audit)) }));
  serve(app, endpoints['oncallSchedules.final'], async ({ params, query }) => ({ result: await finalSchedule(db, { id: params.id, ...query }) }));
  serve(app, endpoints['oncall.who'], async ({ query }) => ({ result: await whoIsOnCall(db, query) }));
  serve(app, endpoints['oncall.gaps'], async ({ query }) => ({ result: await scheduleGaps(db, query) }));
  serve(app, endpoints['oncall.myShift'], async ({ user }) => ({ result: await myShift(db, {}, user) }));
  serve(app, endpoints['oncallSchedules.import'], async ({ body, user, request }) => ({ result: await audited(request, db, (tx, audit) => importSchedule(tx, body, user, audit)) }));

  // Feed URLs are shown once; a new one replaces the old at once.
  serve(app, endpoints['oncallSchedules.createFeed'], async ({ params, user, request }) => {
    const publicUrl = publicUrlOf(request, options.publicUrl);
    return { result: await audited(request, db, (tx, audit) => createScheduleFeed(tx, { id: params.id, publicUrl }, user, audit)) };
  });
  serve(app, endpoints['oncallSchedules.revokeFeed'], async ({ params, user, request }) => ({ result: await audited(request, db, (tx, audit) => revokeScheduleFeed(tx, params, user, audit)) }));
  serve(app, endpoints['oncall.createMyFeed'], async ({ user, request }) => {
    const publicUrl = publicUrlOf(request, options.publicUrl);
    return { result: await audited(request, db, (tx, audit) => createPersonFeed(tx, { publicUrl }, user, audit)) };
  });
  serve(app, endpoints['oncall.revokeMyFeed'], async ({ user, request }) => ({ result: await audited(request, db, (tx, audit) => revokePersonFeed(tx, {}, user, audit)) }));

  // A calendar app has no session: the secret in the URL is the credential, checked by the service.
  serve(app, endpoints['oncall.calendar'], async ({ query, reply }) => {
    const text = await feedCalendar(db, query);
    return reply.header('content-type', 'text/calendar; charset=utf-8').header('cache-control', 'private, max-age=300').send(text);
  });
}
