/**
 * node_exporter's netdev and netstat collectors for a simulated Linux host: interface
 * counters, and TCP/UDP/ICMP statistics that follow the interface traffic.
 */
import { counter, gauge, type Kit } from './kit';
import { rate, whole, type Signal } from './signals';

export interface Traffic {
  rxBytes: Signal;
  txBytes: Signal;
}

export function network(kit: Kit): Traffic {
  const { x, spec, levels } = kit;
  const rng = kit.rng.fork('network');
  const stats = ['bytes', 'packets', 'errs', 'drop'] as const;
  const fam = (dir: 'receive' | 'transmit', s: string) => x.family(`node_network_${dir}_${s}_total`, 'counter', `Network device statistic ${dir}_${s}.`);
  const fams = { receive: stats.map((s) => fam('receive', s)), transmit: stats.map((s) => fam('transmit', s)) };
  const upFam = x.family('node_network_up', 'gauge', "Value is 1 if operstate is 'up', 0 otherwise.");
  const mtuFam = x.family('node_network_mtu_bytes', 'gauge', 'Network device property: mtu_bytes');
  const busy = spec.profile === 'busy-network';
  const nics = [...spec.nics, 'lo'].map((device, i) => {
    const lo = device === 'lo';
    const share = lo ? 0.08 : i === 0 ? 1 : 0.12;
    const rx = rate(rng, levels.netRx * share, 0.6);
    const tx = lo ? rx : rate(rng, levels.netRx * levels.netTxRatio * share, 0.6);
    const drops = rate(rng, lo ? 0 : busy ? 0.2 : 0.0004, 0.8);
    const ids = (dir: 'receive' | 'transmit') => fams[dir].map((f) => f.series({ device }));
    return { device, lo, rx, tx, drops, ids: { receive: ids('receive'), transmit: ids('transmit') }, up: upFam.series({ device }), mtu: mtuFam.series({ device }) };
  });
  kit.step((t) => {
    for (const n of nics) {
      const rxB = whole(n.rx.integral(t));
      const txB = whole(n.tx.integral(t));
      const [rb, rp, re, rd] = n.ids.receive;
      const [tb, tp, te, td] = n.ids.transmit;
      kit.set(rb!, rxB);
      kit.set(rp!, whole(rxB / (n.lo ? 4200 : 820)));
      kit.set(re!, 0);
      kit.set(rd!, whole(n.drops.integral(t)));
      kit.set(tb!, txB);
      kit.set(tp!, whole(txB / (n.lo ? 4200 : 1050)));
      kit.set(te!, 0);
      kit.set(td!, 0);
      // The kernel reports lo's operstate as "unknown", so node_network_up is 0 for it.
      kit.set(n.up, n.lo ? 0 : 1);
      kit.set(n.mtu, n.lo ? 65536 : 1500);
    }
  });
  const main = nics[0]!;
  return { rxBytes: main.rx, txBytes: main.tx };
}

/** The default netstat fields plus Tcp_MaxConn, which Linux reports as -1 (no fixed limit). */
export function netstat(kit: Kit, traffic: Traffic): void {
  const { x, levels, spec } = kit;
  const rng = kit.rng.fork('netstat');
  const stat = (proto: string, field: string) => x.family(`node_netstat_${proto}_${field}`, 'untyped', `Statistic ${proto}${field}.`).series();
  const estab = gauge(rng, levels.tcpEstab, levels.tcpEstab * 0.3, 1);
  const opens = 2 + levels.tcpEstab * 0.05;
  const hot = spec.profile === 'hot-cpu' || spec.profile === 'busy-network';
  const counters: [number, (t: number) => number][] = [
    [stat('Icmp', 'InMsgs'), counter(rng, 0.6)],
    [stat('Icmp', 'OutMsgs'), counter(rng, 0.6)],
    [stat('Icmp', 'InErrors'), counter(rng, 0.0005, 0.9)],
    [stat('Udp', 'InDatagrams'), counter(rng, 12)],
    [stat('Udp', 'OutDatagrams'), counter(rng, 12)],
    [stat('Udp', 'NoPorts'), counter(rng, 0.02)],
    [stat('Udp', 'InErrors'), counter(rng, 0, 0)],
    [stat('Udp', 'RcvbufErrors'), counter(rng, 0, 0)],
    [stat('Udp', 'SndbufErrors'), counter(rng, 0, 0)],
    [stat('Tcp', 'ActiveOpens'), counter(rng, opens * 0.4)],
    [stat('Tcp', 'PassiveOpens'), counter(rng, opens)],
    [stat('Tcp', 'InErrs'), counter(rng, hot ? 0.02 : 0.0008, 0.9)],
    [stat('Tcp', 'OutRsts'), counter(rng, opens * 0.06)],
    [stat('TcpExt', 'ListenOverflows'), counter(rng, levels.listenOverflows, 0.9)],
    [stat('TcpExt', 'ListenDrops'), counter(rng, levels.listenOverflows * 1.1, 0.9)],
    [stat('TcpExt', 'TCPSynRetrans'), counter(rng, hot ? 0.4 : 0.03, 0.8)],
    [stat('TcpExt', 'TCPTimeouts'), counter(rng, hot ? 0.6 : 0.05, 0.8)],
    [stat('TcpExt', 'SyncookiesSent'), counter(rng, levels.listenOverflows * 0.2, 0.9)],
    [stat('TcpExt', 'SyncookiesRecv'), counter(rng, levels.listenOverflows * 0.1, 0.9)],
    [stat('TcpExt', 'SyncookiesFailed'), counter(rng, 0, 0)],
  ];
  const segs = { in: stat('Tcp', 'InSegs'), out: stat('Tcp', 'OutSegs'), retrans: stat('Tcp', 'RetransSegs') };
  const octets = { in: stat('IpExt', 'InOctets'), out: stat('IpExt', 'OutOctets') };
  const currEstab = stat('Tcp', 'CurrEstab');
  const maxConn = stat('Tcp', 'MaxConn');
  const forwarding = stat('Ip', 'Forwarding');
  const retransShare = hot ? 0.004 : 0.0008;
  kit.step((t) => {
    for (const [id, c] of counters) kit.set(id, c(t));
    const rx = traffic.rxBytes.integral(t);
    const tx = traffic.txBytes.integral(t);
    const outSegs = whole(tx / 1040);
    kit.set(segs.in, whole(rx / 830));
    kit.set(segs.out, outSegs);
    kit.set(segs.retrans, whole(outSegs * retransShare));
    kit.set(octets.in, whole(rx * 1.02));
    kit.set(octets.out, whole(tx * 1.02));
    kit.set(currEstab, Math.round(estab(t)));
    kit.set(maxConn, -1);
    kit.set(forwarding, 2);
  });
}
