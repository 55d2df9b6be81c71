package io.jstark.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Tables go heaviest first onto the worker with the most budget left that fits them in RAM, else spilled onto a worker
 * that spills and fits their RAM floor; a table no worker fits is refused, naming every figure.
 */
class TablePlacementTest {
    private static final List<WorkerAddress> WORKERS =
            List.of(new WorkerAddress("a", 1), new WorkerAddress("b", 2), new WorkerAddress("c", 3));
    private static final boolean[] NONE_SPILLS = {false, false, false};

    /** Placement on workers that keep everything in RAM (each table's floor its RAM bytes). */
    private static int[] inRam(List<String> tables, long[] bytes, long[] budgets) {
        return TablePlacement.place(tables, bytes, bytes, WORKERS, budgets, NONE_SPILLS)
                .worker();
    }

    @Test
    void theHeaviestTableGoesFirstToTheWorkerWithTheMostBudgetLeft() {
        int[] placed = inRam(List.of("t0", "t1", "t2", "t3"), new long[] {10, 70, 40, 30}, new long[] {80, 100, 50});
        // t1 (70) -> b (100, 30 left); t2 (40) -> a (80, 40 left); t3 (30) -> c (50, 20 left); t0 (10) -> a (40 left,
        // the most)
        assertThat(placed).containsExactly(0, 1, 0, 2);
    }

    @Test
    void equalBudgetsBreakTiesByTheWorkersOrder() {
        assertThat(inRam(List.of("x", "y"), new long[] {5, 5}, new long[] {10, 10, 10}))
                .containsExactly(0, 1);
    }

    @Test
    void aStatementAboveEveryBudgetButBelowTheirSumIsSpread() {
        long[] bytes = {60, 50, 40, 30, 20};
        long[] budgets = {80, 80, 80};
        int[] placed = inRam(List.of("a", "b", "c", "d", "e"), bytes, budgets);
        long[] used = new long[3];
        for (int i = 0; i < bytes.length; i++) {
            used[placed[i]] += bytes[i];
        }
        for (long u : used) {
            assertThat(u).isLessThanOrEqualTo(80);
        }
        assertThat(used[0] + used[1] + used[2]).isEqualTo(200);
    }

    @Test
    void aTableThatFitsNoWorkerIsRefusedNamingTheBytesOfEveryTableAndWorker() {
        assertThatThrownBy(() -> inRam(List.of("small", "huge"), new long[] {1, 500}, new long[] {100, 200, 300}))
                .isInstanceOf(ClusterException.class)
                .hasMessageContaining("'huge' (500 bytes in RAM, 500 spilled)")
                .hasMessageContaining("'small' 1 1")
                .hasMessageContaining("a:1 budget 100 (RAM only)")
                .hasMessageContaining("c:3 budget 300 (RAM only)");
    }

    @Test
    void aTableAboveEveryBudgetInRamGoesSpilledToTheWorkerThatSpillsChargedItsFloor() {
        TablePlacement.Placed placed = TablePlacement.place(
                List.of("big", "small"),
                new long[] {500, 10},
                new long[] {150, 10},
                WORKERS,
                new long[] {300, 200, 100},
                new boolean[] {false, true, true});
        // a has the most budget but keeps everything in RAM; b spills and has the most left of those that do
        assertThat(placed.worker()).containsExactly(1, 0);
        assertThat(placed.charged()).containsExactly(150, 10);
    }

    @Test
    void aTableWhoseFloorFitsNoWorkerThatSpillsIsRefusedNamingItsFloorAndTheWorkers() {
        assertThatThrownBy(() -> TablePlacement.place(
                        List.of("big"),
                        new long[] {500},
                        new long[] {250},
                        WORKERS,
                        new long[] {300, 200, 100},
                        new boolean[] {false, true, true}))
                .isInstanceOf(ClusterException.class)
                .hasMessageContaining("'big' (500 bytes in RAM, 250 spilled)")
                .hasMessageContaining("a:1 budget 300 (RAM only)")
                .hasMessageContaining("b:2 budget 200 (spills)");
    }
}
