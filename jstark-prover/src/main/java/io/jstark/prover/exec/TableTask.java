package io.jstark.prover.exec;

/**
 * One table's work in one pass of the prover (its main commitment, or its fused chain: aux build, aux
 * commit, rounds 2-4). A task touches only its own table's state, so tasks of one pass may run in any
 * order and concurrently; the result must not depend on which.
 *
 * @param <R> what the task produces, stored in the cell of its table index
 */
public interface TableTask<R> {
    /**
     * Position of the table in the proof (results come back in this order).
     *
     * @return the table's index, from 0
     */
    int index();

    /**
     * The table's name, for spans and errors.
     *
     * @return the name
     */
    String table();

    /**
     * Bytes the task may hold at its peak while it runs (what a memory gate admits).
     *
     * @return bytes, at least 0
     */
    long estimatedBytes();

    /**
     * Does the work. Long tasks call {@link TaskControl#checkpoint()} at their phase boundaries so that a
     * failure elsewhere stops them promptly.
     *
     * @param control the executor's handle for checkpoints
     * @return the task's result
     * @throws Exception whatever the work throws; the executor wraps it in a {@link TableProvingException}
     */
    R run(TaskControl control) throws Exception;
}
