package io.jstark.air.program;

/**
 * How a bound program evaluates a batch of rows, one implementation per {@link ConstraintProgram.Engine}: the
 * workspace it needs and the pass over a batch that fills the workspace's outputs.
 */
sealed interface BatchEvaluator permits Interpreter, CompiledEvaluator {
    /** {@return per-thread scratch for batches of up to {@code batchSize} rows} */
    ConstraintProgram.Workspace newWorkspace(int batchSize);

    /**
     * Evaluates every output for rows [rowStart, rowStart + length) into the workspace's outputs.
     *
     * @param ws a workspace this evaluator made, of at least {@code length} rows
     * @param source the varying leaves' values
     * @param rowStart the batch's first row
     * @param length the batch's rows
     */
    void evaluate(ConstraintProgram.Workspace ws, BatchSource source, int rowStart, int length);
}
