package io.jstark.cluster;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.protocol.InvalidOptionsException;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.memory.TableDimensions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The remote backend cannot draw a zero-knowledge proof's randomness on its workers yet: it refuses the option by name. */
class ZeroKnowledgeRefusedTest {
    @Test
    void zeroKnowledgeOptionsAreRefusedNamingTheOption() {
        Example vm = Examples.byName("vm");
        List<TableDimensions> tables = new ArrayList<>();
        for (io.jstark.air.Air air : vm.airs()) {
            tables.add(new TableDimensions(air.name(), air, air.fixedLogHeight() > 0 ? air.fixedLogHeight() : 6));
        }
        try (RemoteBackend backend = RemoteBackend.streamingTraces(
                List.of(new WorkerAddress("127.0.0.1", 1)), ClusterTls.PLAINTEXT, "vm", Duration.ofSeconds(1))) {
            assertThatThrownBy(() ->
                            backend.describe(tables, ProofOptions.fast100().withZeroKnowledge(true), 1))
                    .isInstanceOfSatisfying(
                            InvalidOptionsException.class,
                            e -> org.assertj.core.api.Assertions.assertThat(e.option())
                                    .isEqualTo("zero knowledge"));
        }
    }
}
