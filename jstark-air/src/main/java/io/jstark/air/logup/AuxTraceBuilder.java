package io.jstark.air.logup;

import io.jstark.air.Air;
import io.jstark.air.batch.TraceBatchSource;
import io.jstark.air.program.ConstraintProgram;
import io.jstark.air.program.Uniforms;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.ExtColumn;
import io.jstark.math.field.ExtKernels;
import io.jstark.math.field.FieldKernels;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.Matrix;
import io.jstark.math.parallel.WorkerPool;
import java.util.Arrays;

/**
 * Builds a table's LogUp aux trace from its main trace and the lookup challenges: the fraction columns
 * and the running sum (see {@link LogUpPlan}), in natural row order, 3 base columns per extension column.
 */
public final class AuxTraceBuilder {
    private static final int BATCH = 512;

    private AuxTraceBuilder() {}

    /** Columns of the aux trace {@link #build} allocates for {@code air}: three limbs per extension column. */
    public static int columns(Air air) {
        return 3 * air.logUp().auxColumns();
    }

    /**
     * Heap scratch of {@link #build} for {@code rows} rows on a pool of this parallelism: a program
     * workspace and two row-sum buffers per running batch task, then one prefix-sum column.
     */
    public static long scratchBytes(Air air, int rows, int parallelism) {
        int batch = Math.min(BATCH, rows);
        long perTask = ConstraintProgram.compile(air.logUp().fingerprintsThenMultiplicities())
                        .workspaceBytes(batch)
                + 6L * Long.BYTES * batch;
        long batches = (rows + BATCH - 1) / BATCH;
        return Math.max(perTask * WorkerPool.concurrentTasks(batches, parallelism), (long) Long.BYTES * rows);
    }

    /** The aux trace and the table's bus contribution (its running sum's last value). */
    public record AuxTrace(Matrix matrix, Ext3 busSum) {}

    /**
     * @param preprocessed the table's preprocessed columns (natural order) or null
     * @param challenges the global lookup challenges, {@link LogUpPlan#CHALLENGE_COUNT} of them
     */
    public static AuxTrace build(
            String tableName,
            Air air,
            Matrix main,
            Matrix preprocessed,
            long[] publicInputs,
            Ext3[] challenges,
            BufferAllocator allocator,
            WorkerPool pool) {
        LogUpPlan plan = air.logUp();
        int rows = main.rows();
        int interactions = plan.interactions().size();
        ConstraintProgram.Bound program = ConstraintProgram.compile(plan.fingerprintsThenMultiplicities())
                .bind(Uniforms.of(publicInputs).withChallenges(challenges));
        TraceBatchSource source = new TraceBatchSource(air, main, preprocessed, null);
        int fractionColumns = plan.fractionColumns().size();
        int sumColumn = plan.runningSumColumn();
        Matrix aux = Matrix.allocate(allocator, tableName + "/aux", rows, columns(air));
        try {
            int batches = (rows + BATCH - 1) / BATCH;
            pool.forEachChunk(batches, batch -> {
                ConstraintProgram.Workspace ws = program.newWorkspace(BATCH);
                int from = batch * BATCH;
                int len = Math.min(BATCH, rows - from);
                program.evaluate(ws, source, from, len);
                long[][] h = new long[3][len];
                long[][] rowSum = new long[3][len];
                // all fingerprints of the batch inverted at once (one inversion per interaction and batch)
                ExtColumn inverses = ExtColumn.zeros(len);
                for (int j = 0; j < fractionColumns; j++) {
                    for (int c = 0; c < 3; c++) {
                        Arrays.fill(h[c], 0, len, 0);
                    }
                    for (int member : plan.fractionColumns().get(j)) {
                        ExtColumn f = new ExtColumn(ws.output(member, 0), ws.output(member, 1), ws.output(member, 2));
                        try {
                            ExtKernels.batchInverse(f, 0, inverses, 0, len);
                        } catch (ArithmeticException e) {
                            throw new IllegalStateException(
                                    "table '" + tableName + "': a LogUp fingerprint vanished in rows " + from + ".."
                                            + (from + len - 1)
                                            + " (probability ~2^-190; the challenges must be resampled)",
                                    e);
                        }
                        long[] m = ws.output(interactions + member, 0);
                        for (int r = 0; r < len; r++) {
                            long mr = m[r];
                            h[0][r] = Goldilocks.add(h[0][r], Goldilocks.mul(inverses.c0()[r], mr));
                            h[1][r] = Goldilocks.add(h[1][r], Goldilocks.mul(inverses.c1()[r], mr));
                            h[2][r] = Goldilocks.add(h[2][r], Goldilocks.mul(inverses.c2()[r], mr));
                        }
                    }
                    for (int c = 0; c < 3; c++) {
                        aux.writeColumn(3 * j + c, from, h[c], 0, len);
                        FieldKernels.add(rowSum[c], 0, h[c], 0, rowSum[c], 0, len);
                    }
                }
                for (int c = 0; c < 3; c++) {
                    aux.writeColumn(3 * sumColumn + c, from, rowSum[c], 0, len);
                }
            });
            // prefix sums of the row sums, coefficient by coefficient (extension addition is per coefficient)
            long[] column = new long[rows];
            long[] last = new long[3];
            for (int c = 0; c < 3; c++) {
                aux.readColumn(3 * sumColumn + c, 0, column, 0, rows);
                long acc = 0;
                for (int r = 0; r < rows; r++) {
                    acc = Goldilocks.add(acc, column[r]);
                    column[r] = acc;
                }
                aux.writeColumn(3 * sumColumn + c, 0, column, 0, rows);
                last[c] = acc;
            }
            return new AuxTrace(aux, new Ext3(last[0], last[1], last[2]));
        } catch (RuntimeException e) {
            aux.close();
            throw e;
        }
    }
}
