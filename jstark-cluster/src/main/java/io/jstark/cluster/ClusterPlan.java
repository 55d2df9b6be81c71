package io.jstark.cluster;

import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.jstark.cluster.wire.DescribeRequest;
import io.jstark.cluster.wire.WorkerInfo;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.TableBuffers;
import io.jstark.prover.memory.TableDimensions;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a proof's tables go: per table its RAM reservation and RAM floor, the worker it is placed on and what it costs
 * that worker's budget, and per worker the memory budget it announced and whether it spills. Made from the workers'
 * announcements, heaviest table first ({@link TablePlacement}).
 *
 * @param ramBytes per table the bytes it holds on its worker in RAM ({@link TablePlacement#tableBytes})
 * @param floorBytes per table the least RAM it needs on a worker that spills ({@link TablePlacement#floorBytes})
 * @param tableBytes per table the bytes its worker's budget is charged for it (its RAM bytes, or its floor where it
 *     fits its worker only spilled)
 * @param worker per table the index of its worker
 * @param budgets per worker its announced memory budget
 * @param spills per worker whether it announced that it spills
 */
record ClusterPlan(
        long[] ramBytes, long[] floorBytes, long[] tableBytes, int[] worker, long[] budgets, boolean[] spills) {

    /**
     * Asks the workers what they offer and places the tables on them.
     *
     * @param source the table source whose definitions every worker must know
     * @throws ClusterException when a worker does not serve, or no placement fits (naming the bytes per table and per
     *     worker)
     */
    static ClusterPlan of(
            WorkerCalls calls,
            String source,
            List<TableDimensions> tables,
            ProofOptions options,
            int workerParallelism) {
        List<TableBuffers> buffers = TableBuffers.forProof(tables, options, workerParallelism);
        long[] ram = new long[tables.size()];
        long[] floor = new long[tables.size()];
        List<String> names = new ArrayList<>();
        for (int i = 0; i < ram.length; i++) {
            ram[i] = TablePlacement.tableBytes(buffers.get(i));
            floor[i] = TablePlacement.floorBytes(buffers.get(i));
            names.add(tables.get(i).name());
        }
        List<WorkerInfo> infos = announcements(calls, source);
        long[] budgets = new long[infos.size()];
        boolean[] spills = new boolean[infos.size()];
        for (int w = 0; w < budgets.length; w++) {
            budgets[w] = infos.get(w).getMemoryBudgetBytes();
            spills[w] = infos.get(w).getSpills();
        }
        TablePlacement.Placed placed = TablePlacement.place(names, ram, floor, calls.workers(), budgets, spills);
        return new ClusterPlan(ram, floor, placed.charged(), placed.worker(), budgets, spills);
    }

    /** {@return whether table {@code i} goes to its worker charged its floor: that worker spills it} */
    boolean spilled(int i) {
        return tableBytes[i] != ramBytes[i];
    }

    /**
     * Asks every worker whether it serves and what it offers.
     *
     * @return per worker its announcement
     * @throws ClusterException naming a worker that does not serve, does not know the table source, or cannot be reached
     *     within the deadline
     */
    static List<WorkerInfo> announcements(WorkerCalls calls, String source) {
        return calls.onEach(
                WorkerCalls.indices(calls.workers().size()),
                w -> {
                    HealthCheckResponse health = calls.healthStub(w, "describe")
                            .check(HealthCheckRequest.newBuilder()
                                    .setService(WorkerServer.SERVICE)
                                    .build());
                    if (health.getStatus() != HealthCheckResponse.ServingStatus.SERVING) {
                        throw new ClusterException("worker " + calls.workers().get(w) + " is " + health.getStatus());
                    }
                    WorkerInfo info = calls.stub(w, "describe").describe(DescribeRequest.getDefaultInstance());
                    if (!info.getExamplesList().contains(source)) {
                        throw new ClusterException("worker " + calls.workers().get(w) + " does not know table source '"
                                + source + "' (it knows " + info.getExamplesList() + ")");
                    }
                    return info;
                },
                "describe");
    }
}
