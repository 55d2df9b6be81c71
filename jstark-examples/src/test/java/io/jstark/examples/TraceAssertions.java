package io.jstark.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.jstark.air.debug.BusImbalanceException;
import io.jstark.air.debug.ConstraintViolationException;
import io.jstark.air.trace.TableTrace;

/** Shared checks of the example tests. */
final class TraceAssertions {
    private TraceAssertions() {}

    /** True when both workloads hold the same tables with identical cells and public inputs. */
    static boolean identical(Workload a, Workload b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            TableTrace x = a.tables().get(i);
            TableTrace y = b.tables().get(i);
            if (!x.name().equals(y.name())
                    || x.air() != y.air()
                    || x.height() != y.height()
                    || !java.util.Arrays.equals(x.publicInputs(), y.publicInputs())) {
                return false;
            }
            for (int c = 0; c < x.main().columns(); c++) {
                if (!java.util.Arrays.equals(x.main().columnToArray(c), y.main().columnToArray(c))) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * The debug checks (constraints, then buses) reject the workload with an error that names {@code table};
     * the LogUp sums no longer cancel when it is a bus error.
     */
    static void assertCaught(Workload workload, String table) {
        Throwable thrown = catchThrowable(() -> {
            WorkloadChecks.checkConstraints(workload);
            WorkloadChecks.checkBuses(workload);
        });
        assertThat(thrown).isInstanceOfAny(ConstraintViolationException.class, BusImbalanceException.class);
        assertThat(thrown).hasMessageContaining("table '" + table + "'");
        if (thrown instanceof ConstraintViolationException v) {
            assertThat(v.table()).isEqualTo(table);
        } else {
            assertThat(WorkloadChecks.checkLogUp(workload, WorkloadChecks.randomChallenges(7))
                            .total()
                            .isZero())
                    .isFalse();
        }
    }
}
