// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer } from '../../../tests/commands/fake-server';
import { setApiBaseUrl } from '../../api/client';
import { addressAndOs, ServerPicker, type ServerPickerProps } from './server-picker';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const server = (id: string, hostname: string, os: 'linux' | 'windows' = 'linux') => fakeServer({ _id: id, hostname, ipaddress: `10.0.0.${id}`, operating_system: os });
const fleet = [server('1', 'web-01'), server('2', 'win-01', 'windows')];

/** Answers each list call with the servers whose hostname contains the asked text; records the bodies. */
function serve(status = 200) {
  const bodies: { filter: Record<string, unknown> }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body)) as { filter: { hostname?: { contains: string } } };
      bodies.push(body);
      const text = body.filter.hostname?.contains ?? '';
      const data = fleet.filter((s) => s.hostname.includes(text));
      return new Response(JSON.stringify(status === 200 ? { result: { data, count: data.length } } : { message: 'down' }), { status });
    }),
  );
  return bodies;
}

function show(props: Partial<ServerPickerProps>) {
  setApiBaseUrl('http://test/api');
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <ServerPicker aria-label="Pick" placeholder="Pick a server" description={addressAndOs} emptyText="Nothing matches" onSelect={vi.fn()} {...props} />
    </QueryClientProvider>,
  );
}

const box = () => screen.getByRole('combobox', { name: 'Pick' }) as HTMLInputElement;
const type = (text: string) => act(() => void fireEvent.change(box(), { target: { value: text } }));

describe('ServerPicker', () => {
  it('asks for active, configured servers whose hostname contains the text once it is still, and lists them with their line', async () => {
    const bodies = serve();
    show({});
    act(() => box().focus());
    await screen.findByRole('option', { name: /web-01/ });
    expect(screen.getByRole('option', { name: /win-01/ }).textContent).toContain('10.0.0.2 · Windows');
    expect(bodies[0]!.filter).toEqual({ isAgentConfigured: { eq: true }, status: { eq: 'active' } });
    type(' win ');
    await waitFor(() => expect(bodies.at(-1)!.filter.hostname).toEqual({ contains: 'win' }));
    // Typing " win " asked once, for the trimmed text.
    expect(bodies).toHaveLength(2);
    await waitFor(() => expect(screen.queryByRole('option', { name: /web-01/ })).toBeNull());
  });

  it('a picker hands over the server chosen and empties', async () => {
    serve();
    const onSelect = vi.fn();
    show({ onSelect });
    act(() => box().focus());
    fireEvent.click(await screen.findByRole('option', { name: /win-01/ }));
    expect(onSelect).toHaveBeenCalledWith(fleet[1]);
    expect(box().value).toBe('');
  });

  it('a form field keeps the chosen hostname, and typing over it chooses nothing', async () => {
    serve();
    function Field() {
      const [chosen, setChosen] = useState<{ id: string; hostname: string } | null>(null);
      return (
        <>
          <ServerPicker aria-label="Pick" placeholder="Pick a server" description={addressAndOs} emptyText="Nothing matches" chosen={chosen} onClear={() => setChosen(null)} onSelect={(s) => setChosen({ id: s._id, hostname: s.hostname })} />
          <p data-testid="chosen">{chosen?.hostname ?? 'none'}</p>
        </>
      );
    }
    setApiBaseUrl('http://test/api');
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <Field />
      </QueryClientProvider>,
    );
    act(() => box().focus());
    fireEvent.click(await screen.findByRole('option', { name: /web-01/ }));
    expect(box().value).toBe('web-01');
    expect(screen.getByTestId('chosen').textContent).toBe('web-01');
    type('web-0');
    expect(screen.getByTestId('chosen').textContent).toBe('none');
  });

  it('says when nothing matches, and when the servers could not be loaded', async () => {
    serve();
    show({});
    act(() => box().focus());
    type('db');
    await screen.findByText('Nothing matches');
    cleanup();
    serve(500);
    show({});
    act(() => box().focus());
    await screen.findByText('Could not load servers');
  });
});
