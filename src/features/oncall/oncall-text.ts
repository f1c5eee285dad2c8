import type { FinalSchedule, WhoIsOnCall } from '../../../server/contract/oncall';

/** "ana (primary) until 09:00 Tue" or "Nobody": how the screens say who is on call. */
export function whoText(w: WhoIsOnCall): string {
  if (!w.person) return 'Nobody';
  return `${w.person.username} (${sourceText(w.source!)}) until ${when(w.until!)}`;
}

export const sourceText = (s: NonNullable<WhoIsOnCall['source']> | FinalSchedule['spans'][number]['source']) => (s.type === 'override' ? 'override' : `${s.layerName}${s.swap ? ', swapped' : ''}`);

/** A time in the reader's own zone, short. */
export const when = (iso: string) => new Date(iso).toLocaleString(undefined, { weekday: 'short', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
