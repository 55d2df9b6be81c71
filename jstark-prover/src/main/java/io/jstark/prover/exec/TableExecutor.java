package io.jstark.prover.exec;

import java.util.List;

/**
 * Runs one pass of per-table tasks and returns their results in table-index order. The prover's logic
 * does not depend on how: {@link SequentialExecutor} runs them one after the other on the calling
 * thread; the scheduler module runs them on k driver threads under a memory budget.
 *
 * <p>Contract: every task runs at most once; the first failure in index order is thrown as one
 * {@link TableProvingException} naming its table, after every started task has finished or stopped at
 * a checkpoint and tasks not yet started were skipped. Each task runs inside a span labelled
 * {@code phase + "_table"} with the table's name as a field, whose parent is the span open on the
 * calling thread.
 */
public interface TableExecutor {
    /**
     * Runs one pass's tasks.
     *
     * @param phase the pass's span label ({@code main_commit}, ...), for spans and errors
     * @param tasks the pass's tasks, one per table, in table-index order
     * @param <R> what each task produces
     * @return the results in the tasks' order
     * @throws TableProvingException for the first task in index order that failed, naming its table
     */
    <R> List<R> runAll(String phase, List<? extends TableTask<R>> tasks) throws TableProvingException;
}
