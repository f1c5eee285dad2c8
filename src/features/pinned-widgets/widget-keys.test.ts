import { describe, expect, it } from 'vitest';
import { widgetKeyCommand } from './widget-keys';

const box = { i: 'k', x: 3, y: 4, w: 5, h: 6 };
const press = (key: string, mods: { alt?: boolean; shift?: boolean; ctrl?: boolean; meta?: boolean } = { alt: true }) =>
  widgetKeyCommand(box, { key, altKey: !!mods.alt, shiftKey: !!mods.shift, ctrlKey: !!mods.ctrl, metaKey: !!mods.meta });

describe('a focused widget’s keys', () => {
  it('Alt+Arrow moves one cell along that axis only', () => {
    expect(press('ArrowLeft')).toEqual({ id: 'widget.move', input: { widget: 'k', x: 2 } });
    expect(press('ArrowRight')).toEqual({ id: 'widget.move', input: { widget: 'k', x: 4 } });
    expect(press('ArrowUp')).toEqual({ id: 'widget.move', input: { widget: 'k', y: 3 } });
    expect(press('ArrowDown')).toEqual({ id: 'widget.move', input: { widget: 'k', y: 5 } });
  });

  it('Alt+Shift+Arrow grows right and down, shrinks left and up', () => {
    expect(press('ArrowRight', { alt: true, shift: true })).toEqual({ id: 'widget.resize', input: { widget: 'k', w: 6 } });
    expect(press('ArrowLeft', { alt: true, shift: true })).toEqual({ id: 'widget.resize', input: { widget: 'k', w: 4 } });
    expect(press('ArrowDown', { alt: true, shift: true })).toEqual({ id: 'widget.resize', input: { widget: 'k', h: 7 } });
    expect(press('ArrowUp', { alt: true, shift: true })).toEqual({ id: 'widget.resize', input: { widget: 'k', h: 5 } });
  });

  it('leaves every other key alone', () => {
    expect(press('ArrowRight', {})).toBeNull();
    expect(press('ArrowRight', { shift: true })).toBeNull();
    expect(press('ArrowRight', { alt: true, ctrl: true })).toBeNull();
    expect(press('ArrowRight', { alt: true, meta: true })).toBeNull();
    expect(press('h')).toBeNull();
  });
});
