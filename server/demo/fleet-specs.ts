/**
 * The demo fleet's hosts. The first twelve are hand-picked so every dashboard card has
 * something to show; larger fleets repeat believable roles, mostly healthy, with the odd
 * troubled host, all derived from the index so the same count always gives the same fleet.
 */
import { hashSeed } from './signals';
import type { DemoOs, DemoProfile, HostSpec, VolumeSpec } from './spec';

const GIB = 2 ** 30;

interface Template {
  role: string;
  os: DemoOs;
  cores: number;
  memGiB: number;
  volumes: VolumeSpec[];
  nics: string[];
  services: string[];
}

const ext4 = (device: string, mountpoint: string, gib: number): VolumeSpec => ({ device, mountpoint, fstype: 'ext4', sizeBytes: gib * GIB });
const xfs = (device: string, mountpoint: string, gib: number): VolumeSpec => ({ device, mountpoint, fstype: 'xfs', sizeBytes: gib * GIB });
const ntfs = (volume: string, gib: number): VolumeSpec => ({ device: volume, mountpoint: volume, fstype: 'NTFS', sizeBytes: gib * GIB });
const winVolumes = (c: number, d: number) => [ntfs('C:', c), ntfs('D:', d), ntfs('HarddiskVolume1', 0.5)];
// Exporters first: the last services listed are the ones a 'failing-services' host loses.
const BASE_LINUX = ['prometheus-node-exporter', 'ssh', 'cron', 'rsyslog'];
const BASE_WINDOWS = ['windows_exporter', 'winrm', 'w32time'];

const TEMPLATES: Record<string, Template> = {
  web: { role: 'web', os: 'linux', cores: 4, memGiB: 8, volumes: [ext4('/dev/sda1', '/', 40), ext4('/dev/sda2', '/boot', 1)], nics: ['eth0'], services: [...BASE_LINUX, 'php8.2-fpm', 'nginx'] },
  edge: { role: 'edge', os: 'linux', cores: 8, memGiB: 16, volumes: [ext4('/dev/nvme0n1p2', '/', 100), { device: '/dev/nvme0n1p1', mountpoint: '/boot/efi', fstype: 'vfat', sizeBytes: 0.5 * GIB }], nics: ['ens5'], services: [...BASE_LINUX, 'haproxy', 'nginx'] },
  api: { role: 'api', os: 'linux', cores: 8, memGiB: 16, volumes: [ext4('/dev/vda1', '/', 80)], nics: ['eth0', 'eth1'], services: [...BASE_LINUX, 'containerd', 'docker'] },
  db: { role: 'db', os: 'linux', cores: 16, memGiB: 64, volumes: [ext4('/dev/sda1', '/', 50), xfs('/dev/sdb1', '/var/lib/postgresql', 500)], nics: ['eno1'], services: [...BASE_LINUX, 'postgresql@15-main'] },
  cache: { role: 'cache', os: 'linux', cores: 4, memGiB: 16, volumes: [ext4('/dev/vda1', '/', 30)], nics: ['eth0'], services: [...BASE_LINUX, 'memcached', 'redis-server'] },
  log: { role: 'log', os: 'linux', cores: 4, memGiB: 16, volumes: [ext4('/dev/sda1', '/', 40), xfs('/dev/sdb1', '/var/lib/elasticsearch', 1000)], nics: ['ens18'], services: [...BASE_LINUX, 'elasticsearch'] },
  worker: { role: 'worker', os: 'linux', cores: 8, memGiB: 16, volumes: [ext4('/dev/vda1', '/', 60)], nics: ['eth0'], services: [...BASE_LINUX, 'containerd', 'kubelet'] },
  mq: { role: 'mq', os: 'linux', cores: 4, memGiB: 8, volumes: [ext4('/dev/sda1', '/', 40), xfs('/dev/sdb1', '/var/lib/rabbitmq', 100)], nics: ['ens18'], services: [...BASE_LINUX, 'rabbitmq-server'] },
  ci: { role: 'ci', os: 'linux', cores: 16, memGiB: 32, volumes: [ext4('/dev/nvme0n1p2', '/', 200)], nics: ['ens5'], services: [...BASE_LINUX, 'docker', 'gitlab-runner'] },
  'win-ad': { role: 'win-ad', os: 'windows', cores: 2, memGiB: 8, volumes: winVolumes(80, 50), nics: ['vmxnet3 Ethernet Adapter'], services: [...BASE_WINDOWS, 'kdc', 'netlogon', 'dns', 'ntds'] },
  'win-sql': { role: 'win-sql', os: 'windows', cores: 8, memGiB: 32, volumes: winVolumes(120, 1000), nics: ['vmxnet3 Ethernet Adapter'], services: [...BASE_WINDOWS, 'sqlserveragent', 'mssqlserver'] },
  'win-file': { role: 'win-file', os: 'windows', cores: 4, memGiB: 8, volumes: winVolumes(100, 2000), nics: ['Intel(R) 82574L Gigabit Network Connection'], services: [...BASE_WINDOWS, 'dfsr', 'lanmanserver'] },
  'win-iis': { role: 'win-iis', os: 'windows', cores: 4, memGiB: 8, volumes: winVolumes(80, 200), nics: ['Microsoft Hyper-V Network Adapter'], services: [...BASE_WINDOWS, 'was', 'w3svc'] },
  'win-rds': { role: 'win-rds', os: 'windows', cores: 8, memGiB: 32, volumes: winVolumes(150, 300), nics: ['Microsoft Hyper-V Network Adapter'], services: [...BASE_WINDOWS, 'spooler', 'termservice'] },
};

/** Hosts 1–12: every profile on Linux, the interesting ones on Windows too. */
const CORE_FLEET: [string, number, DemoProfile][] = [
  ['web', 1, 'normal'],
  ['edge', 1, 'busy-network'],
  ['api', 1, 'hot-cpu'],
  ['db', 1, 'memory-high'],
  ['cache', 1, 'failing-services'],
  ['log', 1, 'disk-full'],
  ['worker', 1, 'down'],
  ['mq', 1, 'normal'],
  ['win-ad', 1, 'normal'],
  ['win-sql', 1, 'memory-high'],
  ['win-file', 1, 'disk-full'],
  ['win-iis', 1, 'failing-services'],
];

const EXTRA_LINUX = ['web', 'api', 'worker', 'db', 'cache', 'edge', 'ci', 'mq', 'log'];
const EXTRA_WINDOWS = ['win-iis', 'win-rds', 'win-ad', 'win-sql', 'win-file'];
/** Positions in each block of 20 extra hosts that get a troubled profile; the rest are normal. */
const EXTRA_TROUBLE: Record<number, DemoProfile> = { 3: 'hot-cpu', 6: 'failing-services', 9: 'busy-network', 11: 'memory-high', 14: 'disk-full', 17: 'down' };

function build(template: Template, number: number, profile: DemoProfile): HostSpec {
  const hostname = `${template.role}-${String(number).padStart(2, '0')}`;
  const key = `demo-${hostname}`;
  return {
    key,
    hostname,
    os: template.os,
    profile,
    cores: template.cores,
    memoryBytes: template.memGiB * GIB,
    volumes: template.volumes.map((v) => ({ ...v })),
    nics: [...template.nics],
    services: [...template.services],
    seed: hashSeed(key),
  };
}

export function defaultFleetSpecs(count = 12): HostSpec[] {
  if (!Number.isInteger(count) || count < 0) throw new Error('the demo fleet size must be a whole number, 0 or more');
  const specs = CORE_FLEET.slice(0, count).map(([role, n, profile]) => build(TEMPLATES[role]!, n, profile));
  const used = new Map<string, number>();
  for (const [role] of CORE_FLEET) used.set(role, (used.get(role) ?? 0) + 1);
  for (let j = 0; specs.length < count; j++) {
    // Two Linux hosts for every Windows one, as in most mixed estates.
    const windows = j % 3 === 2;
    const roles = windows ? EXTRA_WINDOWS : EXTRA_LINUX;
    const k = windows ? Math.floor(j / 3) : j - Math.floor((j + 1) / 3);
    const role = roles[k % roles.length]!;
    const n = (used.get(role) ?? 0) + 1;
    used.set(role, n);
    specs.push(build(TEMPLATES[role]!, n, EXTRA_TROUBLE[j % 20] ?? 'normal'));
  }
  return specs;
}
