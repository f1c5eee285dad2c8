import { escapeHtml } from '../alerting/delivery-messages';
import type { alerts } from '../db/schema';
import { alertName } from './service';

type AlertRow = typeof alerts.$inferSelect;

/**
 * The small page a notification's link opens (issue 27 §4): what the link would do and a button
 * that does it (a GET never acts: mail scanners and link previews open every link), what it did,
 * or why it did nothing. Standalone (no script, the console's CSP allows inline styles and a form
 * posting to itself); everything an alert or a host says is escaped text.
 */
export function actionPage(p: {
  title: string;
  detail: string;
  /** The alert's page in the console. */
  link?: string | null;
  alert?: Pick<AlertRow, 'alertname' | 'hostname' | 'severity' | 'status' | 'summary' | 'createdAt'> | null;
  /** The button that POSTs the form to this same URL. */
  button?: string | null;
  tone: 'ask' | 'done' | 'refused';
}): string {
  const color = p.tone === 'refused' ? '#b91c1c' : p.tone === 'done' ? '#15803d' : '#0f172a';
  const facts = p.alert
    ? [
        ['Alert', alertName(p.alert)],
        ['Severity', p.alert.severity],
        ['Status', p.alert.status === 'firing' ? 'Active' : p.alert.status === 'snoozed' ? 'Snoozed' : 'Resolved'],
        ['Triggered', `${p.alert.createdAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`],
        ...(p.alert.summary ? [['Summary', p.alert.summary]] : []),
      ]
    : [];
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">',
    '<meta name="robots" content="noindex"><meta name="referrer" content="no-referrer">',
    `<title>${escapeHtml(p.title)} · Opsdeck</title></head>`,
    '<body style="font-family:system-ui,sans-serif;font-size:15px;color:#0f172a;max-width:36rem;margin:3rem auto;padding:0 1rem">',
    `<h1 style="font-size:20px;margin:0 0 12px;color:${color}">${escapeHtml(p.title)}</h1>`,
    `<p style="margin:0 0 16px">${escapeHtml(p.detail)}</p>`,
    ...(facts.length
      ? [
          '<table style="border-collapse:collapse;margin-bottom:16px">',
          ...facts.map(([k, v]) => `<tr><th style="text-align:left;padding:2px 12px 2px 0;color:#475569;font-weight:600">${escapeHtml(k!)}</th><td>${escapeHtml(v!)}</td></tr>`),
          '</table>',
        ]
      : []),
    ...(p.button
      ? [`<form method="post"><button type="submit" name="confirm" value="1" style="font-size:15px;padding:8px 16px;border-radius:6px;border:0;background:#1d4ed8;color:#fff;cursor:pointer">${escapeHtml(p.button)}</button></form>`]
      : []),
    ...(p.link ? [`<p style="margin:16px 0 0"><a href="${escapeHtml(p.link)}">Open the alert in Opsdeck</a></p>`] : []),
    '</body></html>',
  ].join('\n');
}
