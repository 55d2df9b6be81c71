package io.jstark.prover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.air.trace.InvalidTraceException;
import io.jstark.air.trace.TableTrace;
import io.jstark.math.field.Goldilocks;
import org.junit.jupiter.api.Test;

class ClaimedTableTest {
    @Test
    void aClaimOfAFilledTraceEqualsTheSameClaimMadeByHand() {
        TableTrace trace = TestAirs.fibTrace(4, 3);
        ClaimedTable claim = ClaimedTable.of(trace);
        ClaimedTable byHand = new ClaimedTable(trace.name(), trace.air(), 4, trace.publicInputs());
        assertThat(claim).isEqualTo(byHand).hasSameHashCodeAs(byHand);
        assertThat(claim.height()).isEqualTo(16);
    }

    @Test
    void aPublicInputThatIsNotAFieldElementIsRefusedNamingTheTable() {
        long notCanonical = Goldilocks.P;
        assertThatThrownBy(() -> new ClaimedTable("fib", TestAirs.FIB, 4, new long[] {3, notCanonical}))
                .isInstanceOf(InvalidTraceException.class)
                .hasMessageContaining("fib")
                .hasMessageContaining("not a canonical field element");
    }

    @Test
    void thePublicInputsAreCopiedInAndOut() {
        long[] inputs = {3, 5};
        ClaimedTable claim = new ClaimedTable("fib", TestAirs.FIB, 4, inputs);
        inputs[0] = 7;
        claim.publicInputs()[1] = 9;
        assertThat(claim.publicInputs()).containsExactly(3, 5);
    }
}
