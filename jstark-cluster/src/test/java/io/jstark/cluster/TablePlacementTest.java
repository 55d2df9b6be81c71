package io.jstark.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Tables go heaviest first onto the worker with the most budget left that fits them; a table no worker fits is refused, naming every figure. */
class TablePlacementTest {
    private static final List<WorkerAddress> WORKERS =
            List.of(new WorkerAddress("a", 1), new WorkerAddress("b", 2), new WorkerAddress("c", 3));

    @Test
    void theHeaviestTableGoesFirstToTheWorkerWithTheMostBudgetLeft() {
        int[] placed = TablePlacement.place(
                List.of("t0", "t1", "t2", "t3"), new long[] {10, 70, 40, 30}, WORKERS, new long[] {80, 100, 50});
        // t1 (70) -> b (100, 30 left); t2 (40) -> a (80, 40 left); t3 (30) -> c (50, 20 left); t0 (10) -> a (40 left,
        // the most)
        assertThat(placed).containsExactly(0, 1, 0, 2);
    }

    @Test
    void equalBudgetsBreakTiesByTheWorkersOrder() {
        assertThat(TablePlacement.place(List.of("x", "y"), new long[] {5, 5}, WORKERS, new long[] {10, 10, 10}))
                .containsExactly(0, 1);
    }

    @Test
    void aStatementAboveEveryBudgetButBelowTheirSumIsSpread() {
        long[] bytes = {60, 50, 40, 30, 20};
        long[] budgets = {80, 80, 80};
        int[] placed = TablePlacement.place(List.of("a", "b", "c", "d", "e"), bytes, WORKERS, budgets);
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
        assertThatThrownBy(() -> TablePlacement.place(
                        List.of("small", "huge"), new long[] {1, 500}, WORKERS, new long[] {100, 200, 300}))
                .isInstanceOf(ClusterException.class)
                .hasMessageContaining("'huge' (500 bytes)")
                .hasMessageContaining("'small' 1")
                .hasMessageContaining("a:1 budget 100")
                .hasMessageContaining("c:3 budget 300");
    }
}
