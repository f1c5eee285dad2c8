import type { Story } from '@ladle/react';
import { useState } from 'react';
import { TagInput } from './tag-input';

export const Tags: Story = () => {
  const [tags, setTags] = useState(['ann@example.com', 'ops-team@example.com']);
  const [text, setText] = useState('');
  return (
    <div className="max-w-md">
      <TagInput
        label="Email List"
        placeholder="name@example.com"
        tags={tags}
        inputValue={text}
        onInputChange={setText}
        onAdd={() => {
          if (!tags.includes(text.trim())) setTags([...tags, text.trim()]);
          setText('');
        }}
        onRemove={(t) => setTags(tags.filter((x) => x !== t))}
      />
    </div>
  );
};

export const WithError: Story = () => (
  <div className="max-w-md">
    <TagInput label="Email List" tags={[]} inputValue="nope" onInputChange={() => {}} onAdd={() => {}} onRemove={() => {}} errorMessage='"nope" is not an email address like name@example.com' />
  </div>
);
