import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseExposition, parseExpositionDetailed } from './exposition';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

describe('parseExposition', () => {
  it('reads names, labels and values, ignoring HELP, TYPE and comments', () => {
    const scrape = parseExposition(
      [
        '# HELP http_requests_total The total number of HTTP requests.',
        '# TYPE http_requests_total counter',
        'http_requests_total{method="post",code="200"} 1027 1395066363000',
        'http_requests_total{method="post",code="400"}    3 1395066363000',
        '',
        '# A plain comment',
        'metric_without_timestamp_and_labels 12.47',
        'something_weird{problem="division by zero"} +Inf -3982045',
      ].join('\n'),
    );
    expect(scrape.get('http_requests_total')).toEqual([
      { labels: { method: 'post', code: '200' }, value: 1027 },
      { labels: { method: 'post', code: '400' }, value: 3 },
    ]);
    expect(scrape.get('metric_without_timestamp_and_labels')).toEqual([{ labels: {}, value: 12.47 }]);
    expect(scrape.get('something_weird')?.[0]?.value).toBe(Infinity);
  });

  it('unescapes \\\\, \\" and \\n in label values and keeps other escapes as written', () => {
    const scrape = parseExposition(
      'msdos_file_access_time_seconds{path="C:\\\\DIR\\\\FILE.TXT",error="Cannot find file:\\n\\"FILE.TXT\\""} 1.458255915e9\n' +
        'odd{v="tab\\there"} 1\n',
    );
    expect(scrape.get('msdos_file_access_time_seconds')?.[0]).toEqual({
      labels: { path: 'C:\\DIR\\FILE.TXT', error: 'Cannot find file:\n"FILE.TXT"' },
      value: 1.458255915e9,
    });
    expect(scrape.get('odd')?.[0]?.labels).toEqual({ v: 'tab\\there' });
  });

  it('reads NaN and infinities in every spelling Go accepts', () => {
    const scrape = parseExposition('a NaN\nb +Inf\nc -Inf\nd nan\ne Inf\nf -inf\ng +infinity\n');
    const v = (name: string) => scrape.get(name)?.[0]?.value;
    expect(v('a')).toBeNaN();
    expect(v('d')).toBeNaN();
    expect([v('b'), v('c'), v('e'), v('f'), v('g')]).toEqual([Infinity, -Infinity, Infinity, -Infinity, Infinity]);
  });

  it('parses numbers exactly as Number() does', () => {
    const texts = ['0', '-0', '1e3', '1E-3', '2.5e+10', '.5', '5.', '0.1', '1.7954252766756413e+09', '123456789012345678901', '1e400', '4.9e-324'];
    const result = parseExpositionDetailed(texts.map((t, i) => `m{i="${i}"} ${t}`).join('\n'));
    expect(result.malformed).toBe(0);
    expect(result.scrape.get('m')?.map((s) => s.value)).toEqual(texts.map(Number));
  });

  it('takes CRLF line ends, blank lines, leading blanks, tabs and trailing commas', () => {
    const result = parseExpositionDetailed(
      '# TYPE a gauge\r\na{x="1",} 1\r\n\r\n  \tb\t2\r\nc { x = "y" , z="w" } 3 \r\nd{} 4',
    );
    expect(result.malformed).toBe(0);
    expect([...result.scrape.keys()]).toEqual(['a', 'b', 'c', 'd']);
    expect(result.scrape.get('c')?.[0]).toEqual({ labels: { x: 'y', z: 'w' }, value: 3 });
    expect(result.scrape.get('d')?.[0]?.value).toBe(4);
  });

  it('keeps _total, _sum, _count and _bucket as written', () => {
    const scrape = parseExposition('h_bucket{le="+Inf"} 3\nh_sum 1.5\nh_count 3\nc_total 7\n');
    expect([...scrape.keys()]).toEqual(['h_bucket', 'h_sum', 'h_count', 'c_total']);
    expect(scrape.get('h_bucket')?.[0]?.labels).toEqual({ le: '+Inf' });
  });

  it('skips and counts malformed lines without throwing, and keeps the good ones', () => {
    const bad = [
      '{a="b"} 1',
      'no_value',
      'no_value_labels{a="b"}',
      'bad_value 12abc',
      'unterminated{a="b 1',
      'unquoted{a=b} 1',
      'missing_eq{a"b"} 1',
      'dup{a="1",a="2"} 1',
      'trailing 1 2 3',
      'bad_ts 1 12x',
      'glued{a="b"}1',
      'newline_escape{a="b\\',
      '"} 1',
      '9starts_with_digit 1',
      'utf8_name_é 1',
    ];
    const result = parseExpositionDetailed(['good 1', ...bad, 'also_good{a="x"} 2'].join('\n'));
    expect(result.samples).toBe(2);
    expect(result.malformed).toBe(bad.length);
    expect(result.errors.length).toBe(10);
    expect(result.errors[0]).toEqual({ line: 2, reason: 'metric name expected' });
    expect(result.scrape.get('also_good')).toEqual([{ labels: { a: 'x' }, value: 2 }]);
  });

  it('never throws on garbage', () => {
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const alphabet = 'ab_{}="\\,# \n\r\t01.e+-InfNa';
    for (let round = 0; round < 200; round++) {
      let text = '';
      for (let i = 0; i < 200; i++) text += alphabet[Math.floor(random() * alphabet.length)];
      const result = parseExpositionDetailed(text);
      expect(result.samples + result.malformed).toBeLessThanOrEqual(text.split('\n').length);
    }
  });

  it('does not let label names like __proto__ or constructor change the labels object', () => {
    const scrape = parseExposition('m{constructor="c",__proto__="p"} 1\n');
    const labels = scrape.get('m')?.[0]?.labels;
    expect(Object.keys(labels ?? {})).toEqual(['constructor', '__proto__']);
    expect(labels?.['__proto__']).toBe('p');
    expect(Object.getPrototypeOf(labels)).toBe(Object.prototype);
  });

  it('reads the real node_exporter capture completely', () => {
    const text = fixture('node-exporter-scrape2.prom');
    const result = parseExpositionDetailed(text);
    const sampleLines = text.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
    expect(result.malformed).toBe(0);
    expect(result.samples).toBe(sampleLines.length);
    expect(result.scrape.get('node_memory_MemTotal_bytes')).toEqual([{ labels: {}, value: 2.5276063744e10 }]);
    expect(result.scrape.get('node_cpu_seconds_total')?.[0]).toEqual({ labels: { cpu: '0', mode: 'idle' }, value: 9585.99 });
    expect(result.scrape.get('node_filesystem_avail_bytes')).toEqual([
      { labels: { device: '/dev/vda', fstype: 'ext4', mountpoint: '/' }, value: 8.475031552e10 },
    ]);
    // Every value matches what Number() makes of the text after the last blank.
    const byLine = sampleLines.map((l) => Number(l.slice(l.lastIndexOf(' ') + 1)));
    const parsed = [...result.scrape.values()].flat().map((s) => s.value);
    expect(parsed.sort()).toEqual(byLine.sort());
  });

  it('reads the real windows_exporter capture, including escaped backslashes', () => {
    const result = parseExpositionDetailed(fixture('windows-exporter-0.20.prom'));
    expect(result.malformed).toBe(0);
    expect(result.scrape.get('windows_service_info')?.[0]?.labels['run_as']).toBe('NT Authority\\LocalService');
    expect(result.scrape.get('windows_logical_disk_free_bytes')?.map((s) => s.labels['volume'])).toEqual(['C:', 'HarddiskVolume4']);
  });
});

describe('parseExpositionDetailed with a keep set (issue 17 §2)', () => {
  const text = fixture('node-exporter-scrape2.prom');
  const full = parseExpositionDetailed(text);

  it('gives the kept families exactly as a full parse does and nothing else, counting every sample line', () => {
    const keep = new Set(['node_cpu_seconds_total', 'node_filesystem_avail_bytes', 'node_load1', 'no_such_family']);
    const some = parseExpositionDetailed(text, keep);
    expect([...some.scrape.keys()].sort()).toEqual(['node_cpu_seconds_total', 'node_filesystem_avail_bytes', 'node_load1']);
    for (const name of some.scrape.keys()) expect(some.scrape.get(name), name).toEqual(full.scrape.get(name));
    expect(some.samples).toBe(full.samples);
    expect(full.scrape.size).toBeGreaterThan(50);
  });

  it('tells a family from another whose name it begins (node_load1 and node_load15)', () => {
    const some = parseExpositionDetailed('node_load1 0.5\nnode_load15 0.25\nnode_load1{x="y"} 2\nnode_load15 3\n', new Set(['node_load15']));
    expect(some.scrape.get('node_load15')).toEqual([
      { labels: {}, value: 0.25 },
      { labels: {}, value: 3 },
    ]);
    expect(some.scrape.has('node_load1')).toBe(false);
    expect(some.samples).toBe(4);
  });

  it('still reports malformed lines of kept families, and an empty set keeps nothing', () => {
    const some = parseExpositionDetailed('a 1\nb{ 2\na{x="1" 3\n', new Set(['a']));
    expect(some.scrape.get('a')).toEqual([{ labels: {}, value: 1 }]);
    expect(some.malformed).toBe(1);
    expect(some.samples).toBe(2);
    const none = parseExpositionDetailed(text, new Set());
    expect(none.scrape.size).toBe(0);
    expect(none.samples).toBe(full.samples);
  });
});

describe('parseExpositionDetailed over bytes (the scrape worker never decodes a body: issue 17 §2)', () => {
  it('decodes label values as UTF-8, escapes next to multi-byte characters included', () => {
    const text = 'm{path="C:\\Ünïcode €",x="日本\\é\\"q"} 1\nm{path="C:\\Ünïcode €",x="ß"} 2\n';
    const bytes = Buffer.from(text, 'utf8');
    // A view into a larger buffer, as a subarray or a pooled Buffer is.
    const padded = new Uint8Array(bytes.length + 10);
    padded.set(bytes, 5);
    for (const body of [bytes, padded.subarray(5, 5 + bytes.length)]) {
      const result = parseExpositionDetailed(body);
      expect(result.malformed).toBe(0);
      expect(result.scrape.get('m')).toEqual([
        { labels: { path: 'C:\\Ünïcode €', x: '日本\\é"q' }, value: 1 },
        { labels: { path: 'C:\\Ünïcode €', x: 'ß' }, value: 2 },
      ]);
    }
    expect(parseExpositionDetailed(bytes)).toEqual(parseExpositionDetailed(text));
  });

  it('skips families outside the keep set by bytes and numbers malformed lines as in the text', () => {
    const text = 'a 1\nb{ 2\n\na{x="1" 3\nc 4\nd}} 5\nc_more 6\nc 7';
    const whole = parseExpositionDetailed(Buffer.from(text));
    expect(whole.errors.map((e) => e.line)).toEqual([2, 4, 6]);
    // A skipped family's lines are counted, not checked (its malformed ones included); `c` is a prefix of `c_more`.
    const some = parseExpositionDetailed(Buffer.from(text), new Set(['c_more']));
    expect(some.samples).toBe(7);
    expect(some.scrape.get('c_more')).toEqual([{ labels: {}, value: 6 }]);
    expect([...some.scrape.keys()]).toEqual(['c_more']);
    expect(some.errors).toEqual([]);
  });

  it('reports a bad value with its UTF-8 text', () => {
    expect(parseExpositionDetailed(Buffer.from('m 1€\n')).errors).toEqual([{ line: 1, reason: 'bad value "1€"' }]);
  });
});
