package io.jstark.cluster;

import io.jstark.prover.ProofPhase;
import io.jstark.prover.TableBuffers;
import io.jstark.prover.memory.Placement;
import io.jstark.prover.memory.TableDimensions;
import io.jstark.prover.memory.TableMemory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * Which worker holds which table: the heaviest table first, each on the worker with the most budget left that still
 * fits it in RAM (the lowest index among equals), so that the same statement and the same workers always give the same
 * placement. A table that fits no worker in RAM goes to the worker that spills with the most budget left that still
 * fits its RAM floor. A greedy packing: a statement it refuses may still fit some other placement.
 */
final class TablePlacement {
    private TablePlacement() {}

    /**
     * Where the tables go and what each costs its worker's budget: its RAM reservation ({@link #tableBytes}), or its RAM
     * floor ({@link #floorBytes}) where it goes to a worker that spills it.
     *
     * @param worker per table the index of its worker
     * @param charged per table the bytes its worker's budget is charged for it
     */
    record Placed(int[] worker, long[] charged) {}

    /** A worker chosen for some tables, and what they cost its budget there. */
    record Choice(int worker, long charged) {}

    /**
     * What one table holds on its worker at most, all in RAM: its main trace (the worker's own, built or received), and
     * the largest over the passes of what it holds into the pass from earlier ones plus what the pass makes (the buffers
     * it keeps beyond the pass included). A buffer counts only in the passes it lives in: the composition's LDE is not
     * there yet when the main commit peaks. A worker runs its tables one after the other, so the sum over its tables
     * bounds its peak.
     *
     * @param buffers the table's buffers in the whole proof
     * @return the bytes its worker reserves for it in RAM
     */
    static long tableBytes(TableBuffers buffers) {
        return heldAtMost(buffers, Placement.RAM);
    }

    /**
     * The least RAM one table needs on a worker that spills: the same sum as {@link #tableBytes} with every buffer that
     * can spill in a spill file (its main trace, and the pages of the spilled buffers its steps keep in use, stay).
     *
     * @param buffers the table's buffers in the whole proof
     * @return the bytes of the worker's budget it needs at least
     */
    static long floorBytes(TableBuffers buffers) {
        return heldAtMost(buffers, Placement.DISK);
    }

    private static long heldAtMost(TableBuffers buffers, Placement placement) {
        TableMemory memory = TableMemory.of(buffers);
        long peak = 0;
        for (ProofPhase p : ProofPhase.values()) {
            if (p.perTable()) {
                peak = Math.max(peak, memory.heldInto(p, placement, false) + memory.gateBytes(p, placement));
            }
        }
        TableDimensions table = buffers.table();
        return (long) table.rows() * table.air().mainWidth() * Long.BYTES + peak;
    }

    /**
     * The worker for tables of {@code ram} bytes in RAM and {@code floor} bytes spilled: the one with the most budget
     * left that fits them in RAM, else the one that spills with the most left that fits their floor (the lowest index
     * among equals).
     *
     * @param left per worker its budget left
     * @param spills per worker whether it spills
     * @param usable which workers may take them
     * @return the choice, or null when no usable worker fits them
     */
    static Choice roomiest(long[] left, boolean[] spills, long ram, long floor, IntPredicate usable) {
        int best = mostLeft(left, ram, usable);
        if (best >= 0) {
            return new Choice(best, ram);
        }
        best = mostLeft(left, floor, w -> spills[w] && usable.test(w));
        return best < 0 ? null : new Choice(best, floor);
    }

    private static int mostLeft(long[] left, long need, IntPredicate usable) {
        int best = -1;
        for (int w = 0; w < left.length; w++) {
            if (usable.test(w) && left[w] >= need && (best < 0 || left[w] > left[best])) {
                best = w;
            }
        }
        return best;
    }

    /**
     * Places the tables.
     *
     * @param tables the tables' names, in the proof's order
     * @param ramBytes per table its RAM reservation ({@link #tableBytes})
     * @param floorBytes per table its RAM floor on a worker that spills ({@link #floorBytes})
     * @param workers the workers' addresses
     * @param budgets per worker its announced budget
     * @param spills per worker whether it announced that it spills
     * @return per table its worker and what it costs there
     * @throws ClusterException naming every table's bytes and every worker's budget when a table fits no worker
     */
    static Placed place(
            List<String> tables,
            long[] ramBytes,
            long[] floorBytes,
            List<WorkerAddress> workers,
            long[] budgets,
            boolean[] spills) {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < tables.size(); i++) {
            order.add(i);
        }
        order.sort(
                Comparator.<Integer>comparingLong(i -> ramBytes[i]).reversed().thenComparing(i -> i));
        long[] left = budgets.clone();
        int[] placed = new int[tables.size()];
        long[] charged = new long[tables.size()];
        for (int i : order) {
            Choice c = roomiest(left, spills, ramBytes[i], floorBytes[i], w -> true);
            if (c == null) {
                throw new ClusterException(refusal(tables, ramBytes, floorBytes, workers, budgets, spills, i));
            }
            placed[i] = c.worker();
            charged[i] = c.charged();
            left[c.worker()] -= c.charged();
        }
        return new Placed(placed, charged);
    }

    private static String refusal(
            List<String> tables,
            long[] ramBytes,
            long[] floorBytes,
            List<WorkerAddress> workers,
            long[] budgets,
            boolean[] spills,
            int unplaced) {
        StringBuilder s = new StringBuilder("no placement of the tables fits the workers' memory budgets: table '")
                .append(tables.get(unplaced))
                .append("' (")
                .append(ramBytes[unplaced])
                .append(" bytes in RAM, ")
                .append(floorBytes[unplaced])
                .append(" spilled) fits on no worker once the heavier tables are placed. Tables (in RAM, spilled):");
        for (int i = 0; i < tables.size(); i++) {
            s.append(" '")
                    .append(tables.get(i))
                    .append("' ")
                    .append(ramBytes[i])
                    .append(" ")
                    .append(floorBytes[i])
                    .append(i + 1 < tables.size() ? "," : ";");
        }
        s.append(" workers:");
        for (int w = 0; w < workers.size(); w++) {
            s.append(" ")
                    .append(workers.get(w))
                    .append(" budget ")
                    .append(budgets[w])
                    .append(spills[w] ? " (spills)" : " (RAM only)")
                    .append(w + 1 < workers.size() ? "," : "");
        }
        return s.toString();
    }
}
