package io.jstark.cluster;

import io.jstark.cluster.wire.DeepRequest;
import io.jstark.cluster.wire.FieldChunk;
import io.jstark.math.field.Ext3;
import io.jstark.math.memory.Matrix;
import io.jstark.prover.LiftedSum;
import io.jstark.prover.PlacedTableSession;
import io.jstark.prover.ProofContext;
import java.util.Iterator;
import java.util.List;

/**
 * The lifted DEEP sum from the workers' parts: each worker streams its partial sum (over its tables, lifted to its
 * tallest) in chunks; the coordinator lifts each to the proof's tallest height and adds them, the same exact field sums
 * as the CPU backend's, grouped by worker.
 */
final class DeepPartials {
    private DeepPartials() {}

    /** {@return the request of a DEEP round with these challenges, each worker's session id still to set} */
    static DeepRequest.Builder request(Ext3 gamma, Ext3 mu, Ext3 z) {
        return DeepRequest.newBuilder()
                .setGamma(Wire.ext3(gamma))
                .setMu(Wire.ext3(mu))
                .setZ(Wire.ext3(z))
                .setChunkRows(Wire.CHUNK_ROWS);
    }

    /**
     * Reads one worker's partial sum from its chunks.
     *
     * @return the three limb columns
     * @throws ClusterException when no chunk came
     */
    static long[][] receive(Iterator<FieldChunk> chunks) {
        long[][] partial = null;
        while (chunks.hasNext()) {
            FieldChunk c = chunks.next();
            if (partial == null) {
                partial = new long[3][1 << c.getLogRows()];
            }
            int rows = c.getValuesCount() / 3;
            for (int k = 0; k < rows; k++) {
                partial[0][c.getFirstRow() + k] = c.getValues(3 * k);
                partial[1][c.getFirstRow() + k] = c.getValues(3 * k + 1);
                partial[2][c.getFirstRow() + k] = c.getValues(3 * k + 2);
            }
        }
        if (partial == null) {
            throw new ClusterException("the DEEP sum came back empty");
        }
        return partial;
    }

    /**
     * The workers' parts lifted and added; with zero knowledge, the random codeword's values added too.
     *
     * @param tables the proof's table count (the random codeword's weight is mu to it)
     * @return the lifted sum, the caller's to close
     */
    static Matrix sum(ProofContext context, List<long[][]> partials, Ext3 mu, int tables) {
        int n = 1 << context.domain().logMaxHeight();
        Matrix sum = LiftedSum.sum(context, acc -> {
            for (long[][] partial : partials) {
                int rows = partial[0].length;
                LiftedSum.add(acc, partial, rows, n / rows, Ext3.ONE);
            }
        });
        if (context.randomness() != null) {
            // the random codeword's commitment came from the worker of the first tallest table; its values enter
            // FRI's batch here, drawn from the same seed
            try {
                PlacedTableSession.addRandomCodeword(sum, context.randomness(), mu, tables);
            } catch (RuntimeException | Error e) {
                sum.close();
                throw e;
            }
        }
        return sum;
    }
}
