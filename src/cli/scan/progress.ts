/**
 * The progress of `scan` on stderr: a bar redrawn in place on a terminal (files, MB, rate, time
 * left), plain lines otherwise (at most one every 2 s, and the last).
 */
import type { CliIO } from '../io.ts';

const clock = (s: number) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, '0')}`;

export class Progress {
  private files = 0;
  private bytes = 0;
  private readonly start = Date.now();
  private last = 0;
  private readonly tty: boolean;
  private readonly io: CliIO;
  private readonly totalFiles: number;
  private readonly totalBytes: number;
  constructor(io: CliIO, totalFiles: number, totalBytes: number) {
    this.io = io;
    this.totalFiles = totalFiles;
    this.totalBytes = totalBytes;
    this.tty = process.stderr.isTTY === true && process.env.CI === undefined;
  }

  /** One file done, of `size` bytes. */
  tick(size: number): void {
    this.files++;
    this.bytes += size;
    const now = Date.now();
    if (now - this.last < (this.tty ? 100 : 2000) && this.files < this.totalFiles) return;
    this.last = now;
    this.io.err(this.tty ? `\r${this.line(now)}\u001b[K` : `${this.line(now)}\n`);
  }

  /** Ends the bar's line. */
  end(): void {
    if (this.tty && this.files > 0) this.io.err('\n');
  }

  private line(now: number): string {
    const s = Math.max(0.001, (now - this.start) / 1000);
    const rate = this.bytes / 1e6 / s;
    // A time left is said once it can mean something: a second in and a twentieth of the bytes
    // read (the first small file gave "157:00 left" for a scan of seconds).
    const known = s >= 1 && this.bytes >= this.totalBytes / 20;
    const left = known ? ((this.totalBytes - this.bytes) / this.bytes) * s : 0;
    const finished = this.files >= this.totalFiles;
    const when = finished ? '0:00 left' : known ? `${clock(left)} left` : 'time left not known yet';
    const text = `${this.files}/${this.totalFiles} files · ${(this.bytes / 1e6).toFixed(1)}/${(this.totalBytes / 1e6).toFixed(1)} MB · ${rate.toFixed(1)} MB/s · ${when}`;
    if (!this.tty) return `scan: ${text}`;
    const width = 24;
    const done = this.totalFiles ? Math.round((this.files / this.totalFiles) * width) : width;
    return `[${'#'.repeat(done)}${'.'.repeat(width - done)}] ${text}`;
  }
}
