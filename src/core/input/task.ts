/** The input of "task" rules: a task reference and the TODO list it names. */
export interface TaskInput {
  /** The task number as written. */
  readonly reference: string;
}
