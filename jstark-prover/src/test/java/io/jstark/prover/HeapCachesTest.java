package io.jstark.prover;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.air.trace.TableTrace;
import io.jstark.math.ntt.Twiddles;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.memory.TableDimensions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The heap caches a proof leaves behind (twiddle tables, bit-reversed domains, next-row tables), proven from
 * empty caches, are exactly what the tables' descriptions count.
 */
class HeapCachesTest {
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void theModelCountsTheCachesAProofMakesExactly(int logFolding) {
        ProofOptions options = new ProofOptions(3, 8, 0, logFolding, 1, "sha256", 0);
        TableTrace s1 = TestAirs.senderTrace("sender-big", 9, 1);
        TableTrace s2 = TestAirs.senderTrace("sender-small", 5, 2);
        List<TableTrace> traces = new ArrayList<>(
                List.of(TestAirs.cube3Trace("cube", 10, 5), s1, TestAirs.bytesTrace(List.of(s1, s2)), s2));
        try (WorkerPool pool = WorkerPool.ofThreads(2)) {
            Twiddles.clearCache();
            LdeDomain.clearCache();
            try (ProvingKey key = ProvingKey.of(List.of(TestAirs.CUBE3, TestAirs.SENDER, TestAirs.BYTES))) {
                new StarkProver(key, options, ProverSettings.defaults().withPool(pool)).prove(traces);
            }
            long cached = Twiddles.cachedBytes() + LdeDomain.cachedBytes();
            assertThat(cached).isPositive();
            List<TableDimensions> dims =
                    traces.stream().map(TableDimensions::of).toList();
            assertThat(TableBuffers.heapCacheBytes(TableBuffers.forProof(dims, options, pool.parallelism())))
                    .isEqualTo(cached);
        } finally {
            for (TableTrace t : traces) {
                t.main().close();
            }
        }
    }
}
