import { matcherFields, matcherOpLabels, matcherOps, type Matcher, type MatcherOp } from '../../../server/contract/routing';
import { Button } from '../../components/ui/button';
import { Select } from '../../components/ui/select';
import { TextField } from '../../components/ui/text-field';
import { Icon } from '../../components/ui/icons';

const names = [...matcherFields.map((f) => ({ value: f as string, label: f as string })), { value: 'label', label: 'server label…' }];

/**
 * Matchers as rows (field, operator, value); a server label is `label.<key>`, its key typed
 * beside. Values are typed text: regexes are RE2, matching the whole value (the server says when
 * one does not compile, naming the row).
 */
export function MatchersEditor({ value, onChange, errors = {} }: { value: Matcher[]; onChange: (m: Matcher[]) => void; errors?: Record<number, string> }) {
  const set = (i: number, patch: Partial<Matcher>) => onChange(value.map((m, j) => (j === i ? { ...m, ...patch } : m)));
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium text-slate-700 dark:text-slate-300">Matchers</legend>
      {value.map((m, i) => {
        const isLabel = m.name.startsWith('label.');
        return (
          <div key={i} className="flex flex-wrap items-start gap-2" role="group" aria-label={`Matcher ${i + 1}`}>
            <Select<string> aria-label={`Matcher ${i + 1} field`} className="w-40" options={names} value={isLabel ? 'label' : m.name} onChange={(n) => set(i, { name: n === 'label' ? 'label.' : n })} />
            {isLabel && <TextField aria-label={`Matcher ${i + 1} label key`} placeholder="key, e.g. env" className="w-28" value={m.name.slice(6)} onChange={(k) => set(i, { name: `label.${k}` })} />}
            <Select<MatcherOp> aria-label={`Matcher ${i + 1} operator`} className="w-44" options={matcherOps.map((o) => ({ value: o, label: `${o}  ${matcherOpLabels[o]}` }))} value={m.op} onChange={(op) => set(i, { op })} />
            <TextField aria-label={`Matcher ${i + 1} value`} placeholder={m.op.includes('~') ? 'regex, e.g. web-.*' : 'value'} className="min-w-40 flex-1" value={m.value} onChange={(v) => set(i, { value: v })} errorMessage={errors[i]} />
            <Button variant="ghost" size="sm" aria-label={`Remove matcher ${i + 1}`} isDisabled={value.length === 1} onPress={() => onChange(value.filter((_, j) => j !== i))}>
              <Icon name="close" />
            </Button>
          </div>
        );
      })}
      <div>
        <Button size="sm" onPress={() => onChange([...value, { name: 'alertname', op: '=', value: '' }])}>
          Add matcher
        </Button>
      </div>
    </fieldset>
  );
}

/** Matchers worth previewing: a value typed, and a label key when it is a label. */
export const completeMatchers = (list: Matcher[]) => list.filter((m) => m.name !== 'label.' && (m.value !== '' || m.op.startsWith('!')));
