import { describe, expect, it } from 'vitest';
import { createNotificationGroupSchema } from '../../server/contract/alerts';
import { addEmails, EMAIL_PATTERN, emailHue, emailInitials, hasEmail, removeEmail, splitEmails } from './email-list';

describe('addEmails (the tag input)', () => {
  it('adds a typed address and clears the input', () => {
    expect(addEmails([], 'ops@example.com')).toMatchObject({ list: ['ops@example.com'], input: '', added: ['ops@example.com'] });
    expect(addEmails(['a@x.io'], '  b@x.io  ')).toMatchObject({ list: ['a@x.io', 'b@x.io'], input: '' });
  });

  it('ignores an empty or blank input', () => {
    for (const input of ['', '   ', ' , ;']) {
      const out = addEmails(['a@x.io'], input);
      expect(out).toMatchObject({ list: ['a@x.io'], input: '', added: [] });
      expect(out.error).toBeUndefined();
    }
  });

  it('ignores a duplicate (case-insensitively) without an error, and clears the input', () => {
    const out = addEmails(['Ops@Example.com'], 'ops@example.com');
    expect(out).toMatchObject({ list: ['Ops@Example.com'], input: '', added: [], duplicates: ['ops@example.com'] });
    expect(out.error).toBeUndefined();
    // Within one paste, too.
    expect(addEmails([], 'a@x.io A@X.IO').list).toEqual(['a@x.io']);
  });

  it('splits a pasted list on commas, semicolons and spaces', () => {
    expect(addEmails(['a@x.io'], 'b@x.io, c@x.io;d@x.io  e@x.io').list).toEqual(['a@x.io', 'b@x.io', 'c@x.io', 'd@x.io', 'e@x.io']);
  });

  it('keeps what is not an address in the input with a message, and adds the rest', () => {
    const out = addEmails([], 'good@x.io nope');
    expect(out).toMatchObject({ list: ['good@x.io'], input: 'nope', invalid: ['nope'], error: '"nope" is not an email address like name@example.com' });
    expect(addEmails([], 'a b').error).toBe('Not email addresses like name@example.com: "a", "b"');
  });

  it('never changes the list it was given', () => {
    const list = ['a@x.io'];
    addEmails(list, 'b@x.io');
    expect(list).toEqual(['a@x.io']);
  });
});

describe('removeEmail / hasEmail', () => {
  it('removes one address case-insensitively and leaves the others in order', () => {
    expect(removeEmail(['a@x.io', 'B@x.io', 'c@x.io'], ' b@X.io ')).toEqual(['a@x.io', 'c@x.io']);
    expect(removeEmail(['a@x.io'], 'z@x.io')).toEqual(['a@x.io']);
    expect(hasEmail(['A@x.io'], 'a@X.io')).toBe(true);
    expect(hasEmail(['A@x.io'], 'b@x.io')).toBe(false);
  });
});

describe('the email rule', () => {
  it('agrees with the contract the server checks', () => {
    for (const e of ['a@b', 'ann.lee+ops@example.co.uk', 'x@y.z', 'no-at-sign', 'two@@at', 'sp ace@x.io', '@x.io', 'a@', '']) {
      const server = createNotificationGroupSchema.safeParse({ name: 'n', emailList: [e] }).success;
      expect(EMAIL_PATTERN.test(e), e).toBe(server);
    }
  });
  it('splitEmails drops empty pieces', () => {
    expect(splitEmails(' a@x.io,,b@x.io ')).toEqual(['a@x.io', 'b@x.io']);
  });
});

describe('avatars', () => {
  it('takes initials from the local part', () => {
    expect(emailInitials('ann.lee@example.com')).toBe('AL');
    expect(emailInitials('ops@example.com')).toBe('OP');
    expect(emailInitials('j_smith-jr@x.io')).toBe('JS');
    expect(emailInitials('x@y')).toBe('X');
    expect(emailInitials('..@y')).toBe('?');
  });
  it('gives one address one hue whatever its case', () => {
    expect(emailHue('Ann@X.io')).toBe(emailHue('ann@x.io'));
    expect(emailHue('ann@x.io')).toBeGreaterThanOrEqual(0);
    expect(emailHue('ann@x.io')).toBeLessThan(360);
  });
});
