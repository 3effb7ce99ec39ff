import { statfs } from 'node:fs/promises';
import os from 'node:os';

/**
 * What `sys/host-info` reports of the machine, in the established shape (`cpu`, `cpu_times`,
 * `disk`, `host`, `memory`); a part that cannot be read becomes a warning.
 */
export async function hostInfo(nowMs: number): Promise<{ data: Record<string, unknown>; warnings: string[] }> {
  const warnings: string[] = [];
  const cpus = os.cpus();
  const disk: unknown[] = [];
  try {
    const s = await statfs('/');
    const total = s.blocks * s.bsize;
    const free = s.bavail * s.bsize;
    disk.push({ path: '/', total, free, used: total - free, usedPercent: total ? ((total - free) / total) * 100 : 0 });
  } catch (err) {
    warnings.push(`disk: ${(err as Error).message}`);
  }
  const total = os.totalmem();
  const free = os.freemem();
  return {
    warnings,
    data: {
      timestamp: new Date(nowMs).toISOString(),
      cpu: cpus.map((c, i) => ({ cpu: i, modelName: c.model, mhz: c.speed, cores: 1 })),
      cpu_times: cpus.map((c, i) => ({
        cpu: `cpu${i}`,
        user: c.times.user / 1000,
        system: c.times.sys / 1000,
        idle: c.times.idle / 1000,
        nice: c.times.nice / 1000,
        irq: c.times.irq / 1000,
      })),
      disk,
      host: {
        hostname: os.hostname(),
        uptime: Math.floor(os.uptime()),
        bootTime: Math.floor(nowMs / 1000 - os.uptime()),
        os: os.type().toLowerCase(),
        platform: os.platform(),
        kernelVersion: os.release(),
        kernelArch: os.arch(),
      },
      memory: { total, available: free, used: total - free, usedPercent: total ? ((total - free) / total) * 100 : 0 },
    },
  };
}
