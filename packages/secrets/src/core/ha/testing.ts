import type { HaLock } from './ha-campaign.js';

/** One lock several campaigns share, as etcd's lock key is shared: one holder, the others wait for its release. */
export class SharedLock {
  holder: string | undefined;
  readonly #waiting: Array<() => void> = [];

  newLock(value: string): HaLock {
    let released = false;
    return {
      acquire: async () => {
        while (this.holder !== undefined) {
          await new Promise<void>((resolve) => this.#waiting.push(resolve));
          if (released) throw new Error('released while waiting');
        }
        this.holder = value;
      },
      holder: async () => this.holder,
      onLost: () => {},
      release: async () => {
        released = true;
        if (this.holder === value) this.holder = undefined;
        for (const wake of this.#waiting.splice(0)) wake();
      },
    };
  }
}
