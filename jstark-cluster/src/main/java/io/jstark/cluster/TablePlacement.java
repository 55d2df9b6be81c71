package io.jstark.cluster;

import io.jstark.prover.ProofPhase;
import io.jstark.prover.TableBuffers;
import io.jstark.prover.memory.Placement;
import io.jstark.prover.memory.TableDimensions;
import io.jstark.prover.memory.TableMemory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Which worker holds which table: the heaviest table first, each on the worker with the most budget left that still
 * fits it (the lowest index among equals), so that the same statement and the same workers always give the same
 * placement. A greedy packing: a statement it refuses may still fit some other placement.
 */
final class TablePlacement {
    private TablePlacement() {}

    /**
     * What one table holds on its worker at most: its main trace (the worker's own, built or received), and the largest
     * over the passes of what it holds into the pass from earlier ones plus what the pass makes (the buffers it keeps
     * beyond the pass included), all in RAM. A buffer counts only in the passes it lives in: the composition's LDE is not
     * there yet when the main commit peaks. A worker runs its tables one after the other, so the sum over its tables
     * bounds its peak.
     *
     * @param buffers the table's buffers in the whole proof
     * @return the bytes its worker reserves for it
     */
    static long tableBytes(TableBuffers buffers) {
        TableMemory memory = TableMemory.of(buffers);
        long peak = 0;
        for (ProofPhase p : ProofPhase.values()) {
            if (p.perTable()) {
                peak = Math.max(peak, memory.heldInto(p, Placement.RAM, false) + memory.gateBytes(p, Placement.RAM));
            }
        }
        TableDimensions table = buffers.table();
        return (long) table.rows() * table.air().mainWidth() * Long.BYTES + peak;
    }

    /**
     * Places the tables.
     *
     * @param tables the tables' names, in the proof's order
     * @param bytes per table what it needs ({@link #tableBytes})
     * @param workers the workers' addresses
     * @param budgets per worker its announced budget
     * @return per table the index of its worker
     * @throws ClusterException naming every table's bytes and every worker's budget when a table fits no worker
     */
    static int[] place(List<String> tables, long[] bytes, List<WorkerAddress> workers, long[] budgets) {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < tables.size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.<Integer>comparingLong(i -> bytes[i]).reversed().thenComparing(i -> i));
        long[] left = budgets.clone();
        int[] placed = new int[tables.size()];
        for (int i : order) {
            int best = -1;
            for (int w = 0; w < left.length; w++) {
                if (left[w] >= bytes[i] && (best < 0 || left[w] > left[best])) {
                    best = w;
                }
            }
            if (best < 0) {
                throw new ClusterException(refusal(tables, bytes, workers, budgets, i));
            }
            placed[i] = best;
            left[best] -= bytes[i];
        }
        return placed;
    }

    private static String refusal(
            List<String> tables, long[] bytes, List<WorkerAddress> workers, long[] budgets, int unplaced) {
        StringBuilder s = new StringBuilder("no placement of the tables fits the workers' memory budgets: table '")
                .append(tables.get(unplaced))
                .append("' (")
                .append(bytes[unplaced])
                .append(" bytes) fits on no worker once the heavier " + "tables are placed. Tables:");
        for (int i = 0; i < tables.size(); i++) {
            s.append(" '")
                    .append(tables.get(i))
                    .append("' ")
                    .append(bytes[i])
                    .append(i + 1 < tables.size() ? "," : ";");
        }
        s.append(" workers:");
        for (int w = 0; w < workers.size(); w++) {
            s.append(" ")
                    .append(workers.get(w))
                    .append(" budget ")
                    .append(budgets[w])
                    .append(w + 1 < workers.size() ? "," : "");
        }
        return s.toString();
    }
}
