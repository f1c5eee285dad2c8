// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { addEmails, removeEmail } from '../../lib/email-list';
import { TagInput } from './tag-input';

afterEach(cleanup);

/** The tag input wired as the group drawer wires it, inside a form that must not submit on Enter. */
function Harness({ onSubmit }: { onSubmit: () => void }) {
  const [tags, setTags] = useState<string[]>(['ann@example.com']);
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <TagInput
        label="Email List"
        tags={tags}
        inputValue={text}
        onInputChange={setText}
        onAdd={() => {
          const out = addEmails(tags, text);
          setTags(out.list);
          setText(out.input);
          setError(out.error);
        }}
        onRemove={(t) => setTags(removeEmail(tags, t))}
        errorMessage={error}
      />
      <button type="submit">Create</button>
    </form>
  );
}

const tagTexts = () => screen.queryAllByRole('listitem').map((li) => li.textContent?.replace('✕', '').trim());

describe('TagInput', () => {
  it('adds on Enter without submitting the form, and clears the input', () => {
    const submit = vi.fn();
    render(<Harness onSubmit={submit} />);
    const input = screen.getByRole('textbox', { name: 'Email List' }) as HTMLInputElement;
    fireEvent.change(input, { target: { value: 'bob@example.com' } });
    // The browser's implicit submit is the keydown's default action: it must be prevented.
    expect(fireEvent.keyDown(input, { key: 'Enter' })).toBe(false);
    expect(tagTexts()).toEqual(['ann@example.com', 'bob@example.com']);
    expect(input.value).toBe('');
    expect(submit).not.toHaveBeenCalled();
  });

  it('has an Enter button that is off while the input is empty', () => {
    render(<Harness onSubmit={() => {}} />);
    const button = screen.getByRole('button', { name: 'Enter' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(fireEvent.keyDown(screen.getByRole('textbox', { name: 'Email List' }), { key: 'Enter' })).toBe(false);
    expect(tagTexts()).toEqual(['ann@example.com']);
    fireEvent.change(screen.getByRole('textbox', { name: 'Email List' }), { target: { value: 'carol@example.com' } });
    expect(button.disabled).toBe(false);
  });

  it('removes a tag with its close button, named after the tag', () => {
    render(<Harness onSubmit={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Remove ann@example.com' }));
    expect(tagTexts()).toEqual([]);
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('shows why an entry was not added and keeps it to fix', () => {
    render(<Harness onSubmit={() => {}} />);
    const input = screen.getByRole('textbox', { name: 'Email List' }) as HTMLInputElement;
    fireEvent.change(input, { target: { value: 'nope' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(screen.getByText('"nope" is not an email address like name@example.com')).toBeTruthy();
    expect(input.value).toBe('nope');
    expect(input.getAttribute('aria-invalid')).toBe('true');
  });
});
