package io.jstark.air.program;

/**
 * A {@link ConstraintProgram} translated to JVM bytecode by {@link RowCompiler}: it evaluates every row of a
 * batch in turn with the program's operations as straight-line code, so a row's intermediate values live in
 * JVM locals (machine registers once compiled) instead of per-instruction arrays.
 */
interface RowKernel {
    /**
     * Evaluates rows [0, length).
     *
     * @param inputs the varying leaves, one array per limb (see {@link RowPlan#inputLimb})
     * @param uniforms the uniform values, three limbs per uniform slot
     * @param spill one row's values that live from one generated method to a later one
     * @param outputs output k's limb c in outputs[3k + c], for outputs that are operations
     * @param length rows in the batch
     */
    void evaluate(long[][] inputs, long[] uniforms, long[] spill, long[][] outputs, int length);
}
