package io.jstark.scheduler;

import io.jstark.prover.exec.TableTask;
import io.jstark.prover.exec.TaskControl;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;

/** A table task without a prover: holds its bytes for a while, passes checkpoints, maybe fails; reports to a {@link Watch}. */
record FakeTable(int index, long estimatedBytes, int workMicros, int checkpoints, boolean fails, Watch watch)
        implements TableTask<String> {

    @Override
    public String table() {
        return "t" + index;
    }

    static String resultOf(int index) {
        return "result-" + index;
    }

    @Override
    public String run(TaskControl control) {
        watch.enter(this);
        try {
            for (int c = 0; c < checkpoints; c++) {
                control.checkpoint();
                LockSupport.parkNanos(workMicros * 1_000L / Math.max(1, checkpoints));
            }
            if (fails) {
                watch.failed(index);
                throw new IllegalStateException("injected failure in " + table());
            }
            return resultOf(index);
        } finally {
            watch.exit(this);
        }
    }

    /**
     * Sees, from inside the tasks, which run at once: records every violation of the budget rule (held bytes
     * above the budget unless one oversized table holds alone), runs per table, start order, injected failures.
     */
    static final class Watch {
        private final long budget;
        private final Map<Integer, Long> running = new HashMap<>();
        private final List<String> violations = new ArrayList<>();
        private final List<Integer> startOrder = new ArrayList<>();
        private final List<Integer> failed = new ArrayList<>();
        private final AtomicIntegerArray runs;

        Watch(long budget, int tables) {
            this.budget = budget;
            this.runs = new AtomicIntegerArray(tables);
        }

        synchronized void enter(FakeTable t) {
            runs.incrementAndGet(t.index());
            startOrder.add(t.index());
            running.put(t.index(), t.estimatedBytes());
            long sum = 0;
            int holders = 0;
            long largest = 0;
            for (long b : running.values()) {
                sum += b;
                if (b > 0) {
                    holders++;
                }
                largest = Math.max(largest, b);
            }
            if (sum > budget && !(holders == 1 && largest > budget)) {
                violations.add("running " + running + " hold " + sum + " bytes, over the budget " + budget);
            }
        }

        synchronized void exit(FakeTable t) {
            running.remove(t.index());
        }

        synchronized void failed(int index) {
            failed.add(index);
        }

        synchronized List<String> violations() {
            return List.copyOf(violations);
        }

        synchronized List<Integer> startOrder() {
            return List.copyOf(startOrder);
        }

        synchronized List<Integer> failed() {
            return List.copyOf(failed);
        }

        int runs(int index) {
            return runs.get(index);
        }
    }
}
