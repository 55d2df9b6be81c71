package io.jstark.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SchedulerOptionsTest {
    @Test
    void defaultsAreTheProvisionalKAndNoBudget() {
        SchedulerOptions defaults = SchedulerOptions.defaults();
        assertThat(defaults.tableParallelism()).isEqualTo(io.jstark.prover.exec.TableParallelism.DEFAULT);
        assertThat(defaults.unlimitedBudget()).isTrue();
    }

    @Test
    void optionsRejectNonsenseDirectly() {
        assertThatThrownBy(() -> new SchedulerOptions(0, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("got 0");
        assertThatThrownBy(() -> new SchedulerOptions(1, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("got 0");
    }
}
