package io.jstark.prover;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.air.Air;
import io.jstark.air.AirBuilder;
import io.jstark.air.expr.Expr;
import io.jstark.air.trace.TableTrace;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.Statement;
import io.jstark.protocol.ZeroKnowledge;
import io.jstark.verifier.StarkVerifier;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

class CompositionProgramsTest {
    /** A definition of this test's own, so that no other test's proofs have filled its entries. */
    private static Air freshDefinition(String name) {
        AirBuilder b = Air.builder(name);
        Expr.MainCell x = b.main("x");
        Expr.MainCell y = b.main("y");
        b.transition("x' = x * y", x.next().sub(x.mul(y)));
        b.everyRow("y is a bit", y.mul(y.sub(1)));
        b.first("x starts at 1", x.sub(1));
        return b.build();
    }

    @Test
    void oneDefinitionAndHeightShareOneCompiledProgram() {
        Air air = freshDefinition("programs-shared");
        CompositionPrograms.Compiled first = CompositionPrograms.of(air, 10);
        assertThat(CompositionPrograms.of(air, 10)).isSameAs(first);
        CompositionPrograms.Compiled taller = CompositionPrograms.of(air, 11);
        assertThat(taller).isNotSameAs(first);
        assertThat(first.layout().logHeight()).isEqualTo(10);
        assertThat(taller.layout().logHeight()).isEqualTo(11);
        // the same shape of definition declared again is another definition: keys compare by identity
        assertThat(CompositionPrograms.of(freshDefinition("programs-shared"), 10))
                .isNotSameAs(first);
    }

    @Test
    void aDefinitionKeepsItsMostRecentlyUsedHeights() {
        Air air = freshDefinition("programs-heights");
        CompositionPrograms.Compiled kept = CompositionPrograms.of(air, 1);
        CompositionPrograms.Compiled dropped = CompositionPrograms.of(air, 2);
        for (int logN = 3; logN <= CompositionPrograms.HEIGHTS_PER_DEFINITION; logN++) {
            CompositionPrograms.of(air, logN);
        }
        // height 1 used again, so height 2 is the least recently used when a ninth height arrives
        assertThat(CompositionPrograms.of(air, 1)).isSameAs(kept);
        CompositionPrograms.of(air, CompositionPrograms.HEIGHTS_PER_DEFINITION + 1);
        assertThat(CompositionPrograms.of(air, 1)).isSameAs(kept);
        CompositionPrograms.Compiled again = CompositionPrograms.of(air, 2);
        assertThat(again).isNotSameAs(dropped);
        assertThat(again.layout().logHeight()).isEqualTo(2);
    }

    @Test
    void concurrentRequestsGetTheOneProgram() throws Exception {
        Air air = freshDefinition("programs-concurrent");
        int threads = 8;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            List<CompletableFuture<CompositionPrograms.Compiled>> requests = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                requests.add(CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                start.await();
                            } catch (InterruptedException e) {
                                throw new IllegalStateException(e);
                            }
                            return CompositionPrograms.of(air, 12);
                        },
                        executor));
            }
            start.countDown();
            CompositionPrograms.Compiled first = requests.get(0).get();
            for (CompletableFuture<CompositionPrograms.Compiled> r : requests) {
                assertThat(r.get()).isSameAs(first);
            }
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void aZeroKnowledgeProofCommitsOneDefinitionPerTable() {
        ProofOptions zk = ProveVerifyTest.SMALL.withZeroKnowledge(true);
        Air committed = ZeroKnowledge.committedAir(zk, TestAirs.SENDER);
        assertThat(committed).isNotSameAs(TestAirs.SENDER);
        assertThat(ZeroKnowledge.committedAir(zk, TestAirs.SENDER)).isSameAs(committed);
    }

    @Test
    void aProofFromTheCachedProgramEqualsTheOneThatCompiledIt() throws Exception {
        Air air = TestAirs.fib();
        TableTrace fib = TestAirs.fibTrace(7, 3);
        TableTrace trace = new TableTrace("fib", air, fib.main(), fib.publicInputs());
        try (ProvingKey key = ProvingKey.of(List.of(air))) {
            byte[] first = ProveVerifyTest.prove(key, ProveVerifyTest.SMALL, List.of(trace));
            CompositionPrograms.Compiled compiled = CompositionPrograms.of(air, 7);
            byte[] second = ProveVerifyTest.prove(key, ProveVerifyTest.SMALL, List.of(trace));
            assertThat(CompositionPrograms.of(air, 7)).isSameAs(compiled);
            assertThat(second).isEqualTo(first);
            StarkVerifier.verify(
                    key.verifyingKey(ProveVerifyTest.SMALL, WorkerPool.common()),
                    Statement.ofTraces(List.of(trace)),
                    second);
        } finally {
            fib.main().close();
        }
    }
}
