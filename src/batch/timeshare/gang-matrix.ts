// The Ousterhout matrix of gang scheduling: MPL rows (time slots) by one column per node. A job's tasks go
// into one row, on that row's lowest-numbered free columns, in the first row (lowest index) with enough
// free columns; rows are visited cyclically, skipping empty ones.
import type { JobRun, Task } from './task.js';

export class GangMatrix {
  private readonly cells: (Task | null)[][];
  private readonly freeInRow: number[];
  private readonly jobsInRow: number[];

  constructor(
    readonly rows: number,
    readonly columns: number,
  ) {
    this.cells = Array.from({ length: rows }, () => new Array<Task | null>(columns).fill(null));
    this.freeInRow = new Array<number>(rows).fill(columns);
    this.jobsInRow = new Array<number>(rows).fill(0);
  }

  /** Places run's tasks (task i on the i-th chosen column); returns the row and the columns, or undefined. */
  place(run: JobRun): { row: number; columns: number[] } | undefined {
    const n = run.tasks.length;
    for (let r = 0; r < this.rows; r++) {
      if (this.freeInRow[r]! < n) continue;
      const row = this.cells[r]!;
      const columns: number[] = [];
      for (let c = 0; c < this.columns && columns.length < n; c++) if (row[c] === null) columns.push(c);
      columns.forEach((c, i) => (row[c] = run.tasks[i]!));
      this.freeInRow[r] = this.freeInRow[r]! - n;
      this.jobsInRow[r] = this.jobsInRow[r]! + 1;
      run.row = r;
      return { row: r, columns };
    }
    return undefined;
  }

  /** Frees a finished task's cell. */
  removeTask(task: Task): void {
    const row = this.cells[task.run.row]!;
    if (row[task.node] === task) {
      row[task.node] = null;
      this.freeInRow[task.run.row] = this.freeInRow[task.run.row]! + 1;
    }
  }

  /** A job whose tasks have all been removed leaves its row. */
  removeJob(run: JobRun): void {
    this.jobsInRow[run.row] = this.jobsInRow[run.row]! - 1;
  }

  taskAt(row: number, column: number): Task | null {
    return this.cells[row]![column]!;
  }

  rowEmpty(row: number): boolean {
    return this.jobsInRow[row] === 0;
  }

  /** The first non-empty row after `row` (cyclically, `row` itself last); -1 when all are empty. */
  nextRow(row: number): number {
    for (let k = 1; k <= this.rows; k++) {
      const r = (((row + k) % this.rows) + this.rows) % this.rows;
      if (this.jobsInRow[r]! > 0) return r;
    }
    return -1;
  }
}
