import type { Story } from '@ladle/react';
import { useState } from 'react';
import { Button } from './button';
import { LoadError } from './load-error';
import { Menu } from './menu';
import { Pagination } from './pagination';
import { SearchField } from './search-field';
import { Skeleton } from './skeleton';
import { Toaster, toast } from './toast';

export const CardMenu: Story = () => <Menu label="Actions" actions={[{ id: 'show', label: 'Show', onAction: () => {} }, { id: 'delete', label: 'Delete', danger: true, onAction: () => {} }]} />;

export const Pager: Story = () => {
  const [state, setState] = useState({ page: 1, pageSize: 25 });
  return <Pagination page={state.page} pageSize={state.pageSize} total={137} onChange={(page, pageSize) => setState({ page, pageSize })} />;
};

export const Search: Story = () => {
  const [value, setValue] = useState('');
  return (
    <div className="max-w-xs space-y-2">
      <SearchField placeholder="Search by name" value={value} onChange={setValue} />
      <p className="text-sm">Debounced value: {value}</p>
    </div>
  );
};

export const Loading: Story = () => (
  <div className="grid max-w-md gap-2">
    <Skeleton className="h-6 w-40" />
    <Skeleton className="h-24" />
  </div>
);

export const Toasts: Story = () => (
  <>
    <div className="flex gap-2">
      <Button onPress={() => toast('success', 'Created user ann')}>Success</Button>
      <Button onPress={() => toast('error', 'A user with this email already exists')}>Error</Button>
    </div>
    <Toaster />
  </>
);

export const FailedLoad: Story = () => (
  <div className="grid max-w-xl gap-2">
    <LoadError title="Could not load servers." detail="Request failed with status 503" onRetry={() => {}} />
    <LoadError compact title="Could not load the services." detail="Request failed with status 503" onRetry={() => {}} retrying />
    <LoadError title="Could not load users:" detail="Forbidden" />
  </div>
);
