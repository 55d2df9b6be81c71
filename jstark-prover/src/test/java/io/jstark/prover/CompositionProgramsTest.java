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
import java.lang.ref.WeakReference;
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
    void theZeroKnowledgeCommittedDefinitionIsOneObjectPerDefinition() {
        ProofOptions zk = ProveVerifyTest.SMALL.withZeroKnowledge(true);
        Air committed = ZeroKnowledge.committedAir(zk, TestAirs.SENDER);
        assertThat(committed).isNotSameAs(TestAirs.SENDER);
        assertThat(ZeroKnowledge.committedAir(zk, TestAirs.SENDER)).isSameAs(committed);
    }

    @Test
    void aProgramReusedByALaterProofGivesTheBytesOfAJustCompiledOne() throws Exception {
        TableTrace fib = TestAirs.fibTrace(7, 3);
        try {
            Air reused = TestAirs.fib();
            TableTrace reusedTrace = new TableTrace("fib", reused, fib.main(), fib.publicInputs());
            byte[] reusedProof;
            try (ProvingKey key = ProvingKey.of(List.of(reused))) {
                ProveVerifyTest.prove(key, ProveVerifyTest.SMALL, List.of(reusedTrace));
                CompositionPrograms.Compiled compiled = CompositionPrograms.of(reused, 7);
                reusedProof = ProveVerifyTest.prove(key, ProveVerifyTest.SMALL, List.of(reusedTrace));
                assertThat(CompositionPrograms.of(reused, 7)).isSameAs(compiled);
                StarkVerifier.verify(
                        key.verifyingKey(ProveVerifyTest.SMALL, WorkerPool.common()),
                        Statement.ofTraces(List.of(reusedTrace)),
                        reusedProof);
            }
            // the same definition declared again: nothing cached for it, so its proof compiles the program afresh
            Air fresh = TestAirs.fib();
            TableTrace freshTrace = new TableTrace("fib", fresh, fib.main(), fib.publicInputs());
            try (ProvingKey key = ProvingKey.of(List.of(fresh))) {
                assertThat(ProveVerifyTest.prove(key, ProveVerifyTest.SMALL, List.of(freshTrace)))
                        .isEqualTo(reusedProof);
            }
        } finally {
            fib.main().close();
        }
    }

    @Test
    void definitionsNoLongerUsedAreCollectedWithTheirPrograms() throws Exception {
        List<WeakReference<Air>> definitions = cacheDefinitionsAndDropThem();
        boolean collected = false;
        for (int attempt = 0; attempt < 50 && !collected; attempt++) {
            System.gc();
            Thread.sleep(20);
            collected = definitions.stream().allMatch(d -> d.get() == null);
        }
        assertThat(definitions).allSatisfy(d -> assertThat(d.get()).isNull());
    }

    /** Definitions with cached programs (one proven, others asked for directly), only weakly reachable on return. */
    private static List<WeakReference<Air>> cacheDefinitionsAndDropThem() throws Exception {
        List<WeakReference<Air>> definitions = new ArrayList<>();
        TableTrace fib = TestAirs.fibTrace(6, 1);
        try {
            Air proven = TestAirs.fib();
            try (ProvingKey key = ProvingKey.of(List.of(proven))) {
                ProveVerifyTest.prove(
                        key,
                        ProveVerifyTest.SMALL,
                        List.of(new TableTrace("fib", proven, fib.main(), fib.publicInputs())));
            }
            definitions.add(new WeakReference<>(proven));
        } finally {
            fib.main().close();
        }
        for (int k = 0; k < 3; k++) {
            Air asked = freshDefinition("programs-dropped-" + k);
            CompositionPrograms.of(asked, 8);
            CompositionPrograms.of(asked, 9);
            definitions.add(new WeakReference<>(asked));
        }
        return definitions;
    }
}
