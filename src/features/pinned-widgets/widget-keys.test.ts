import { describe, expect, it } from 'vitest';
import { moveWidget } from '../../../commands/widget/move-widget';
import { resizeWidget } from '../../../commands/widget/resize-widget';
import { widgetKeyCommand, widgetKeysHint } from './widget-keys';

const box = { i: 'k', x: 3, y: 4, w: 5, h: 6 };

describe('a focused widget’s keys', () => {
  it('the move key steps one cell along that axis only', () => {
    expect(widgetKeyCommand(box, 'widget.move', 'ArrowLeft')).toEqual({ id: 'widget.move', input: { widget: 'k', x: 2 } });
    expect(widgetKeyCommand(box, 'widget.move', 'ArrowRight')).toEqual({ id: 'widget.move', input: { widget: 'k', x: 4 } });
    expect(widgetKeyCommand(box, 'widget.move', 'ArrowUp')).toEqual({ id: 'widget.move', input: { widget: 'k', y: 3 } });
    expect(widgetKeyCommand(box, 'widget.move', 'ArrowDown')).toEqual({ id: 'widget.move', input: { widget: 'k', y: 5 } });
  });

  it('the resize key grows right and down, shrinks left and up', () => {
    expect(widgetKeyCommand(box, 'widget.resize', 'ArrowRight')).toEqual({ id: 'widget.resize', input: { widget: 'k', w: 6 } });
    expect(widgetKeyCommand(box, 'widget.resize', 'ArrowLeft')).toEqual({ id: 'widget.resize', input: { widget: 'k', w: 4 } });
    expect(widgetKeyCommand(box, 'widget.resize', 'ArrowDown')).toEqual({ id: 'widget.resize', input: { widget: 'k', h: 7 } });
    expect(widgetKeyCommand(box, 'widget.resize', 'ArrowUp')).toEqual({ id: 'widget.resize', input: { widget: 'k', h: 5 } });
    expect(widgetKeyCommand(box, 'widget.move', 'h')).toBeNull();
  });

  it('the hint names the keys the two commands declare', () => {
    expect(widgetKeysHint(moveWidget.screenKeys!.keys, resizeWidget.screenKeys!.keys)).toBe(
      'Alt+Arrow keys move this widget one cell; Alt+Shift+Arrow keys make it one cell wider, narrower, taller or shorter.',
    );
  });
});
